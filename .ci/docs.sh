#!/usr/bin/env bash
# Builds the DocC documentation of the library modules with the toolchain's own `docc`, from symbol graphs the
# compiler emits, fails on any DocC warning (broken symbol links included), and merges the archives into one static
# site. No swift-docc-plugin: packages that depend on RetroSwift fetch nothing new.
#
#   bash .ci/docs.sh                 # the core products: RetroSwift, RetroSwiftURLSession, RetroSwiftTesting
#                                    #   (Foundation only, no trait; under a minute from cold)
#   bash .ci/docs.sh --all           # all ten modules, with the traits AsyncHTTPClient, NIO, SwiftLog, Tracing, Metrics,
#                                    #   TransportConformance and Protobuf (SwiftNIO and BoringSSL too: ~6 minutes from cold); CI
#   bash .ci/docs.sh --serve         # build as above (add --all for every module), then serve the site on
#                                    #   http://127.0.0.1:8000 until Ctrl-C; --port <n> picks another port
#   python3 -m http.server --bind 127.0.0.1 --directory .build-docs/site 8000
#                                    # serve the last built site yourself, then open
#                                    #   http://127.0.0.1:8000/documentation/retroswift
#   DOCC=/path/to/docc bash .ci/docs.sh
#
# Output: one archive per module in .build-docs/<Module>.doccarchive, and .build-docs/site, the archives merged by
# `docc merge` into one site: its root redirects to RetroSwift's landing page, /documentation lists the modules, and
# the other modules' pages link to RetroSwift's symbols (each archive is built with RetroSwift's as a dependency).
# Every run replaces the archives and the site with the modules it built.
#
# The core run compiles in .build-docs-core, --all in .build-docs (different traits, so neither rebuilds the other's
# modules). `rm -rf .build-docs-core` (or `.build-docs` for --all) gives a cold run.
#
# Run from the repository root (the script moves there itself).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

all=false
serve=false
port=8000
while [[ $# -gt 0 ]]; do
    case "$1" in
        --all) all=true ;;
        --serve) serve=true ;;
        --port)
            [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || { echo "docs.sh: --port needs a number" >&2; exit 2; }
            port="$2"
            shift
            ;;
        -h | --help) usage; exit 0 ;;
        *) echo "docs.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

CORE_MODULES=(RetroSwift RetroSwiftURLSession RetroSwiftTesting)
TRAIT_MODULES=(RetroSwiftTransportConformance RetroSwiftAsyncHTTPClient RetroSwiftNIO RetroSwiftLogging RetroSwiftTracing RetroSwiftMetrics RetroSwiftProtobuf)
ALL_MODULES=("${CORE_MODULES[@]}" "${TRAIT_MODULES[@]}")
OUT=.build-docs                          # archives and the merged site, whichever the run
SITE="$OUT/site"
if $all; then
    MODULES=("${ALL_MODULES[@]}")
    SCRATCH=.build-docs
    # The traits compile RetroSwiftAsyncHTTPClient, RetroSwiftNIO, RetroSwiftLogging, RetroSwiftTracing,
    # RetroSwiftMetrics, RetroSwiftTransportConformance and RetroSwiftProtobuf; without them their sources compile to
    # nothing.
    BUILDS=("--traits AsyncHTTPClient,NIO,SwiftLog,Tracing,Metrics,TransportConformance,Protobuf")
else
    MODULES=("${CORE_MODULES[@]}")
    SCRATCH=.build-docs-core
    # Only these targets (RetroSwift comes with either): a plain `swift build` would also compile the test server on
    # SwiftNIO. SwiftPM takes one --target per invocation.
    BUILDS=("--target RetroSwiftURLSession" "--target RetroSwiftTesting")
fi
GRAPHS="$PWD/$SCRATCH/symbol-graphs"     # where the compiler writes every module's graphs, dependencies' included
PER_MODULE="$SCRATCH/module-graphs"      # one directory per documented module, holding that module's current graphs
COMPLETE="$PER_MODULE/.complete"         # present once every set in $PER_MODULE is known to be complete
BUNDLE_PREFIX=io.github.level-two

DOCC="${DOCC:-}"
if [[ -z "$DOCC" ]]; then
    if command -v docc >/dev/null 2>&1; then
        DOCC="$(command -v docc)"
    else
        DOCC="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
    fi
fi
if [[ ! -x "$DOCC" ]]; then
    echo "docs.sh: docc not found (looked on PATH and next to swift); set DOCC=/path/to/docc" >&2
    exit 1
fi

# The compiler writes a symbol graph file only when its content changed, and only for the modules it compiles. So
# the graphs of our modules are moved out of $GRAPHS into $PER_MODULE/<module> after every build: a module compiled
# by the next build then writes all of its files afresh (an extension graph it no longer writes is left out, one
# whose content did not change is kept), and a module not compiled keeps the set moved out before.
collect_graphs() {
    local module
    for module in "${ALL_MODULES[@]}"; do
        if [[ -f "$GRAPHS/$module.symbols.json" ]]; then
            rm -rf "${PER_MODULE:?}/$module"
            mkdir -p "$PER_MODULE/$module"
            mv "$GRAPHS/$module.symbols.json" "$PER_MODULE/$module/"
            for graph in "$GRAPHS/$module@"*.symbols.json; do
                if [[ -e "$graph" ]]; then mv "$graph" "$PER_MODULE/$module/"; fi
            done
        else
            rm -f "$GRAPHS/$module@"*.symbols.json   # without the module's main graph: left by an interrupted build
        fi
    done
}

# Forgets the graphs of the given modules and deletes their compiled modules, so that the next build compiles them
# again and writes their graphs.
recompile() {
    local module
    for module in "$@"; do
        rm -rf "${PER_MODULE:?}/$module"
        rm -f "$GRAPHS/$module.symbols.json" "$GRAPHS/$module@"*.symbols.json
        rm -f "$SCRATCH/debug/Modules/$module.swiftmodule"
    done
}

# Flags apply to every module built, so $GRAPHS also holds SwiftNIO's and the others' graphs; only our modules' are
# passed to docc. Extension block symbols document RetroSwift's conformances of Data, String and Optional and
# RetroSwiftTesting's fixtures on HttpOperationResult; synthesized members (Collection's methods on HTTPHeaderFields
# and the like) are left out.
log="$SCRATCH/docs-build.log"
build() {
    local args
    : >"$log"
    for args in "${BUILDS[@]}"; do
        # shellcheck disable=SC2086 # $args is a list of words
        if ! swift build $args --scratch-path "$SCRATCH" \
            -Xswiftc -emit-symbol-graph \
            -Xswiftc -emit-symbol-graph-dir -Xswiftc "$GRAPHS" \
            -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
            -Xswiftc -include-spi-symbols \
            -Xswiftc -emit-extension-block-symbols \
            -Xswiftc -symbol-graph-skip-synthesized-members \
            >>"$log" 2>&1; then
            cat "$log" >&2
            echo "docs.sh: swift build $args failed" >&2
            exit 1
        fi
    done
}

mkdir -p "$GRAPHS" "$PER_MODULE" "$OUT"
if [[ ! -e "$COMPLETE" ]]; then
    # A new scratch directory, one that an older docs.sh wrote (its sets may lack extension graphs), or one whose
    # graphs were deleted: only a compilation of every module gives sets known to be complete.
    recompile "${ALL_MODULES[@]}"
fi
collect_graphs
build
collect_graphs
missing=()
for module in "${MODULES[@]}"; do
    if [[ ! -f "$PER_MODULE/$module/$module.symbols.json" ]]; then missing+=("$module"); fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "docs.sh: no symbol graphs for ${missing[*]}; compiling them again" >&2
    recompile "${missing[@]}"
    build
    collect_graphs
    for module in "${missing[@]}"; do
        if [[ ! -f "$PER_MODULE/$module/$module.symbols.json" ]]; then
            echo "docs.sh: still no symbol graph for $module in $GRAPHS (try rm -rf $SCRATCH)" >&2
            exit 1
        fi
    done
fi
touch "$COMPLETE"

# Each run's archives and site replace the previous ones, so nothing left from another module set is served.
for module in "${ALL_MODULES[@]}"; do rm -rf "${OUT:?}/$module.doccarchive"; done
rm -rf "${SITE:?}"

status=0
archives=()
for module in "${MODULES[@]}"; do
    archive="$OUT/$module.doccarchive"
    docc_log="$SCRATCH/docc-$module.log"
    # The other modules resolve the RetroSwift symbols they mention (conformances, parameter types) against
    # RetroSwift's archive, so their pages link to its pages in the merged site.
    link_args=(--enable-experimental-external-link-support)
    if [[ "$module" != RetroSwift && -d "$OUT/RetroSwift.doccarchive" ]]; then
        link_args+=(--dependency "$OUT/RetroSwift.doccarchive")
    fi
    if "$DOCC" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$PER_MODULE/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$BUNDLE_PREFIX.$module" \
        --output-dir "$archive" \
        "${link_args[@]}" \
        --warnings-as-errors >"$docc_log" 2>&1 \
        && ! grep -qE '(^|[^a-z])(warning|error):' "$docc_log"; then
        pages=$(find "$archive/data/documentation" -name '*.json' | wc -l)
        echo "$module: $archive ($pages pages, no warnings)"
        archives+=("$archive")
    else
        cat "$docc_log" >&2
        echo "$module: FAILED (DocC warnings or errors above)" >&2
        status=1
    fi
done
if [[ $status -ne 0 ]]; then
    echo "docs.sh: no site built, as DocC reported problems" >&2
    exit "$status"
fi

# One site: `docc merge` combines the archives and synthesizes /documentation, a page listing the modules with their
# abstracts (as a list: the default grid shows a blank placeholder image per module). The SPA's root page has no
# content of its own, so / becomes a redirect to RetroSwift's landing page.
merge_log="$SCRATCH/docc-merge.log"
if ! "$DOCC" merge "${archives[@]}" \
    --synthesized-landing-page-name RetroSwift \
    --synthesized-landing-page-kind Package \
    --synthesized-landing-page-topics-style list \
    --output-path "$SITE" >"$merge_log" 2>&1 \
    || grep -qE '(^|[^a-z])(warning|error):' "$merge_log"; then
    cat "$merge_log" >&2
    echo "docs.sh: docc merge failed" >&2
    exit 1
fi
{
    cat <<'HTML'
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>RetroSwift documentation</title>
<meta http-equiv="refresh" content="0; url=documentation/retroswift/">
<link rel="canonical" href="documentation/retroswift/">
</head>
<body>
<p>Redirecting to <a href="documentation/retroswift/">RetroSwift's documentation</a>. All modules:</p>
<ul>
HTML
    for module in "${MODULES[@]}"; do
        lower=$(tr '[:upper:]' '[:lower:]' <<<"$module")
        printf '<li><a href="documentation/%s/">%s</a></li>\n' "$lower" "$module"
    done
    printf '</ul>\n</body>\n</html>\n'
} >"$SITE/index.html"
for module in "${MODULES[@]}"; do
    lower=$(tr '[:upper:]' '[:lower:]' <<<"$module")
    if [[ ! -f "$SITE/documentation/$lower/index.html" || ! -f "$SITE/data/documentation/$lower.json" ]]; then
        echo "docs.sh: the merged site lacks $module's pages" >&2
        exit 1
    fi
done

echo
echo "Site: $SITE (${#MODULES[@]} modules)"
url="http://127.0.0.1:$port/documentation/retroswift"
if $serve; then
    echo "Serving it on $url (Ctrl-C stops)"
    exec python3 -m http.server --bind 127.0.0.1 --directory "$SITE" "$port"
fi
echo "Serve it:  python3 -m http.server --bind 127.0.0.1 --directory $SITE $port"
echo "Then open: $url"
