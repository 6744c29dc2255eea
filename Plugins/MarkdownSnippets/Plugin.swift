import Foundation
import PackagePlugin

/// Compiles the Swift code blocks of README.md and of every DocC article into the target it is applied to: one
/// generated Swift file per Markdown file, made by the `MarkdownSnippetsTool` executable (Tools/MarkdownSnippets).
/// A block that does not compile fails the build with the Markdown file and line. CONTRIBUTING.md explains the
/// markers a fragment needs.
@main
struct MarkdownSnippets: BuildToolPlugin {
    /// Modules that exist only with a package trait, so their blocks compile only when the trait is on.
    static let gatedModules: [String: String] = [
        "RetroSwiftAsyncHTTPClient": "AsyncHTTPClient", "AsyncHTTPClient": "AsyncHTTPClient", "NIOCore": "AsyncHTTPClient",
        "NIOPosix": "AsyncHTTPClient", "RetroSwiftLogging": "SwiftLog", "Logging": "SwiftLog", "RetroSwiftTracing": "Tracing",
        "Tracing": "Tracing", "RetroSwiftMetrics": "Metrics", "Metrics": "Metrics",
        "RetroSwiftTransportConformance": "TransportConformance", "RetroSwiftNIO": "NIO",
    ]

    /// The names of the Markdown file's `file` markers, in order.
    static func fileMarkers(in markdown: URL) -> [String] {
        guard let text = try? String(contentsOf: markdown, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("<!-- snippet: file "), trimmed.hasSuffix("-->") else { return nil }
            let marker = trimmed.dropFirst("<!-- snippet: file ".count).dropLast(3)
            return marker.split(separator: ",").first?.trimmingCharacters(in: .whitespaces)
        }
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "MarkdownSnippetsTool")
        let root = context.package.directoryURL
        var documents: [(path: String, trait: String?)] = [("README.md", nil)]
        let sources = root.appending(path: "Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: catalog).path) else {
                continue
            }
            for file in files.sorted() where file.hasSuffix(".md") {
                documents.append(("\(catalog)/\(file)", Self.gatedModules[module]))
            }
        }
        let gated = Self.gatedModules.sorted { $0.key < $1.key }.flatMap { ["--gated-module", "\($0.key)=\($0.value)"] }
        return documents.map { document in
            let input = root.appending(path: document.path)
            let name = document.path.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ".", with: "_")
            let directory = context.pluginWorkDirectoryURL
            // One more file per `<!-- snippet: file Name -->` marker (see Tools/MarkdownSnippets/MarkdownSnippets.swift).
            let names = [name] + Self.fileMarkers(in: input).map { "\(name)_\($0)" }
            var arguments = [input.path, document.path, directory.path, name] + gated
            if let trait = document.trait { arguments += ["--trait", trait] }
            return .buildCommand(
                displayName: "Extracting the Swift code blocks of \(document.path)",
                executable: tool.url,
                arguments: arguments,
                inputFiles: [input],
                outputFiles: names.map { directory.appending(path: "\($0).swift") }
            )
        }
    }
}
