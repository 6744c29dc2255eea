import Foundation

/// The command line: reads one Markdown file, writes its Swift files (only those that changed, so an unchanged
/// document does not rebuild its targets).
@main
enum SnippetCommand {
    static func main() {
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            guard arguments.count >= 4 else {
                throw Failure(
                    description:
                        "usage: MarkdownSnippetsTool <markdown> <display path> <output directory> <base name> [--gated-module Module=Trait ...] [--trait T]"
                )
            }
            let markdownPath = arguments.removeFirst()
            let displayPath = arguments.removeFirst()
            let outputDirectory = arguments.removeFirst()
            let baseName = arguments.removeFirst()
            var settings = Traits()
            while !arguments.isEmpty {
                let option = arguments.removeFirst()
                guard !arguments.isEmpty else { throw Failure(description: "MarkdownSnippetsTool: \(option) needs a value") }
                let value = arguments.removeFirst()
                switch option {
                case "--gated-module":
                    let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2 else { throw Failure(description: "MarkdownSnippetsTool: expected Module=Trait, got \(value)") }
                    settings.gatedModules[parts[0]] = parts[1]
                case "--trait":
                    settings.documentTrait = value
                default:
                    throw Failure(description: "MarkdownSnippetsTool: unknown option \(option)")
                }
            }
            for file in try generate(markdownPath: markdownPath, displayPath: displayPath, settings) {
                let outputPath = "\(outputDirectory)/\(baseName)\(file.name.map { "_" + $0 } ?? "").swift"
                let existing = try? String(contentsOfFile: outputPath, encoding: .utf8)
                if existing != file.source {
                    try file.source.write(toFile: outputPath, atomically: true, encoding: .utf8)
                }
            }
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }
}
