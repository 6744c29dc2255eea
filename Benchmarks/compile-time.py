#!/usr/bin/env python3
"""Compile time of a 200-endpoint API declared with RetroSwift against the same API written by hand with
URLComponents and URLRequest (issue 27's target: at most 1.2x).

Both sides have the same 200 endpoints, as in the cold-start benchmark: POST /v{i}/teams/{team_id}/entries/{entry_id},
each with its own request type of six fields (2 path, 2 query, 1 header, 1 JSON body). The RetroSwift side declares
them with wrappers; the hand-written side has plain structs and one method per endpoint that percent-encodes the path
segments, sets the query items, the header and the JSON body, sends the request through URLSession and checks the
status. Each side is one file compiled on its own by `swiftc -c` (debug, as a developer builds while working, and
with -O), against the RetroSwift module of a debug build of this package. The two are compiled alternately, round
after round, so the machine's state moves both alike; the figure is the median of the rounds' paired ratios.

  swift build --product RetroSwift && python3 Benchmarks/compile-time.py [--rounds 7] [--endpoints 200]
"""
import argparse
import importlib.util
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADER = [
    "import Foundation",
    "#if canImport(FoundationNetworking)",
    "    import FoundationNetworking",
    "#endif",
    "",
    "struct Entry: Codable { var title: String; var tags: [String] }",
    "",
]


def retroswift_source(endpoints: int) -> str:
    # The request types of the cold-start benchmark, from its generator.
    spec = importlib.util.spec_from_file_location("generate_cold_start", ROOT / "Benchmarks/generate-cold-start.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    out = HEADER[:1] + ["import RetroSwift"] + HEADER[1:]
    for i in range(endpoints):
        out += generator.request_type(f"Request{i}")
    out += ["// @unchecked Sendable: adds no stored state to Domain.", "final class Api: Domain, @unchecked Sendable {"]
    for i in range(endpoints):
        out += [
            f'    @Post("/v{i}/teams/{{team_id}}/entries/{{entry_id}}")',
            f"    var endpoint{i}: (Request{i}) async throws -> Empty",
        ]
    out += ["}", ""]
    return "\n".join(out)


def hand_written_source(endpoints: int) -> str:
    out = HEADER + [
        "struct StatusError: Error { let status: Int }",
        "",
    ]
    for i in range(endpoints):
        out += [
            f"struct Request{i} {{",
            '    var teamId: String = ""',
            "    var entryId: Int = 0",
            "    var page: Int = 0",
            '    var sortOrder: String = ""',
            '    var accountId: String = ""',
            "    var entry: Entry",
            "}",
            "",
        ]
    out += [
        "final class Api: Sendable {",
        "    let baseURL: URL",
        "    let session: URLSession",
        "",
        "    init(baseURL: URL, session: URLSession = .shared) {",
        "        self.baseURL = baseURL",
        "        self.session = session",
        "    }",
        "",
        "    private static func segment(_ value: String) -> String {",
        "        var allowed = CharacterSet.urlPathAllowed",
        '        allowed.remove(charactersIn: "/")',
        "        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value",
        "    }",
        "",
        "    private func send(_ request: URLRequest) async throws {",
        "        let (_, response) = try await session.data(for: request)",
        "        let status = (response as? HTTPURLResponse)?.statusCode ?? 0",
        "        guard (200..<300).contains(status) else { throw StatusError(status: status) }",
        "    }",
        "",
    ]
    for i in range(endpoints):
        out += [
            f"    func endpoint{i}(_ request: Request{i}) async throws {{",
            "        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!",
            f'        components.percentEncodedPath += "/v{i}/teams/" + Self.segment(request.teamId) + "/entries/"'
            " + Self.segment(String(request.entryId))",
            "        components.queryItems = [",
            '            URLQueryItem(name: "page", value: String(request.page)),',
            '            URLQueryItem(name: "sort", value: request.sortOrder),',
            "        ]",
            "        var urlRequest = URLRequest(url: components.url!)",
            '        urlRequest.httpMethod = "POST"',
            '        urlRequest.setValue(request.accountId, forHTTPHeaderField: "X-Account-Id")',
            '        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")',
            "        urlRequest.httpBody = try JSONEncoder().encode(request.entry)",
            "        try await send(urlRequest)",
            "    }",
            "",
        ]
    out += ["}", ""]
    return "\n".join(out)


def compile_seconds(source: pathlib.Path, modules: pathlib.Path, optimize: bool) -> float:
    command = ["swiftc", "-c", "-parse-as-library", "-swift-version", "6", "-module-name", source.stem]
    command += ["-O"] if optimize else ["-Onone"]
    command += ["-I", str(modules), str(source), "-o", str(source.with_suffix(".o"))]
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"compile-time.py: {' '.join(command)} failed:\n{result.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--endpoints", type=int, default=200)
    parser.add_argument("--modules", default=str(ROOT / ".build/debug/Modules"))
    args = parser.parse_args()
    modules = pathlib.Path(args.modules)
    if not (modules / "RetroSwift.swiftmodule").exists():
        sys.exit(f"compile-time.py: no RetroSwift module in {modules}; run `swift build --product RetroSwift` first")

    with tempfile.TemporaryDirectory() as directory:
        sources = {
            "retroswift": pathlib.Path(directory, "RetroSwiftApi.swift"),
            "hand": pathlib.Path(directory, "HandWrittenApi.swift"),
        }
        sources["retroswift"].write_text(retroswift_source(args.endpoints))
        sources["hand"].write_text(hand_written_source(args.endpoints))
        print(f"{args.endpoints} endpoints, {args.rounds} alternating rounds per mode, swiftc -c of one file\n")
        print("| mode | hand-written (median s) | RetroSwift (median s) | paired ratio, median (min–max) |")
        print("| --- | --- | --- | --- |")
        for optimize in (False, True):
            times = {"hand": [], "retroswift": []}
            # One unmeasured compile of each first: it loads the modules into the page cache.
            for name, source in sources.items():
                compile_seconds(source, modules, optimize)
            for round_index in range(args.rounds):
                order = ["hand", "retroswift"] if round_index % 2 == 0 else ["retroswift", "hand"]
                for name in order:
                    times[name].append(compile_seconds(sources[name], modules, optimize))
            ratios = [r / h for r, h in zip(times["retroswift"], times["hand"])]
            print(
                f"| {'-O' if optimize else '-Onone'} | {statistics.median(times['hand']):.2f} | "
                f"{statistics.median(times['retroswift']):.2f} | {statistics.median(ratios):.2f}x "
                f"({min(ratios):.2f}–{max(ratios):.2f}) |"
            )


if __name__ == "__main__":
    main()
