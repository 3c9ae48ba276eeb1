import Foundation

/// The committed corpora: one pretty-printed JSON array per corpus in
/// `eval/corpora/`, written by the generators (`fm eval generate`) and read
/// by the runs, so what was measured can be read and diffed.
package enum CorpusFiles {
    /// `eval/corpora` under the current directory (the repository root when
    /// run through `make eval`).
    package static var defaultDirectory: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("eval/corpora")
    }

    /// `eval/heldout`: the same generators from other seeds.
    package static var heldOutDirectory: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("eval/heldout")
    }

    /// The seed of a corpus's held-out sample: its own seed with every bit
    /// flipped, so the two share no item by construction of the generator's
    /// random stream.
    package static func heldOutSeed<T: EvalTask>(for task: T.Type) -> UInt64 { ~task.seed }

    /// A corpus as its file holds it (from its own seed, or its held-out one).
    package static func encode(_ corpus: Corpus, heldOut: Bool = false) throws -> Data {
        try encode(corpus.taskType, heldOut: heldOut)
    }

    private static func encode<T: EvalTask>(_ task: T.Type, heldOut: Bool) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let items = task.generate(seed: heldOut ? heldOutSeed(for: task) : task.seed)
        return try encoder.encode(items) + Data("\n".utf8)
    }

    /// Writes every corpus's file into `directory`.
    package static func writeAll(to directory: URL, heldOut: Bool = false) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for corpus in Corpus.files {
            try encode(corpus, heldOut: heldOut).write(to: directory.appendingPathComponent(corpus.fileName), options: .atomic)
        }
    }

    /// The items of `task`'s corpus file in `directory`.
    package static func load<T: EvalTask>(_ task: T.Type, from directory: URL) throws -> [T.Item] {
        let url = directory.appendingPathComponent(T.corpus.fileName)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CorpusError(
                "cannot read \(url.path): \(error.localizedDescription) (run from the repository root, pass --corpora DIR, or write the files with `fm eval generate`)"
            )
        }
        do {
            return try JSONDecoder().decode([T.Item].self, from: data)
        } catch {
            throw CorpusError("\(url.path) is not a \(T.corpus.rawValue) corpus: \(error)")
        }
    }
}

/// A corpus file that is missing or malformed.
package struct CorpusError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
