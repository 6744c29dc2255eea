#!/usr/bin/env bash
# Builds the DocC documentation of the seven library modules with the toolchain's own `docc`, from symbol graphs the
# compiler emits, and fails on any DocC warning (broken symbol links included). No swift-docc-plugin: packages that
# depend on RetroSwift fetch nothing new.
#
#   bash .ci/docs.sh                 # archives land in .build-docs/<Module>.doccarchive
#   DOCC=/path/to/docc bash .ci/docs.sh
#
# Run from the repository root (the script moves there itself). `rm -rf .build-docs` gives a cold run.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

MODULES=(RetroSwift RetroSwiftURLSession RetroSwiftTesting RetroSwiftTransportConformance RetroSwiftAsyncHTTPClient RetroSwiftLogging RetroSwiftTracing)
SCRATCH=.build-docs
GRAPHS="$PWD/$SCRATCH/symbol-graphs"     # every module's graphs, dependencies' included, as the compiler writes them
PER_MODULE="$SCRATCH/module-graphs"      # one directory per documented module, holding only that module's graphs
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

mkdir -p "$GRAPHS"
marker="$SCRATCH/.graphs-marker"
touch "$marker"
sleep 1   # graphs written by this build are then strictly newer than the marker

# The traits compile RetroSwiftAsyncHTTPClient, RetroSwiftLogging and RetroSwiftTracing. The flags apply to every module built, so the graph
# directory also holds SwiftNIO's and the others'; only our modules' files are passed to docc below. Extension block
# symbols document RetroSwift's conformances of Data, String and Optional and RetroSwiftTesting's fixtures on
# HttpOperationResult; synthesized members (Collection's methods on HttpHeaderFields and the like) are left out.
log="$SCRATCH/docs-build.log"
if ! swift build --traits AsyncHTTPClient,SwiftLog,Tracing,TransportConformance --scratch-path "$SCRATCH" \
    -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$GRAPHS" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
    -Xswiftc -emit-extension-block-symbols \
    -Xswiftc -symbol-graph-skip-synthesized-members \
    >"$log" 2>&1; then
    cat "$log" >&2
    echo "docs.sh: swift build failed" >&2
    exit 1
fi

status=0
for module in "${MODULES[@]}"; do
    main_graph="$GRAPHS/$module.symbols.json"
    if [[ ! -f "$main_graph" ]]; then
        echo "docs.sh: no symbol graph for $module in $GRAPHS (try rm -rf $SCRATCH)" >&2
        exit 1
    fi
    # A module compiled by this build rewrote all of its graphs; an extension graph older than the marker is then
    # left over from an extension that no longer exists.
    if [[ "$main_graph" -nt "$marker" ]]; then
        for graph in "$GRAPHS/$module@"*.symbols.json; do
            if [[ -e "$graph" && ! "$graph" -nt "$marker" ]]; then rm -f "$graph"; fi
        done
    fi

    module_graphs="$PER_MODULE/$module"
    rm -rf "$module_graphs"
    mkdir -p "$module_graphs"
    cp "$main_graph" "$module_graphs/"
    for graph in "$GRAPHS/$module@"*.symbols.json; do
        if [[ -e "$graph" ]]; then cp "$graph" "$module_graphs/"; fi
    done

    archive="$SCRATCH/$module.doccarchive"
    docc_log="$SCRATCH/docc-$module.log"
    rm -rf "$archive"
    if "$DOCC" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$module_graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$BUNDLE_PREFIX.$module" \
        --output-dir "$archive" \
        --warnings-as-errors >"$docc_log" 2>&1 \
        && ! grep -qE '(^|[^a-z])(warning|error):' "$docc_log"; then
        pages=$(find "$archive/data/documentation" -name '*.json' | wc -l)
        echo "$module: $archive ($pages pages, no warnings)"
    else
        cat "$docc_log" >&2
        echo "$module: FAILED (DocC warnings or errors above)" >&2
        status=1
    fi
done
rm -f "$marker"
exit "$status"
