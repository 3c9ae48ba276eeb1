import ArgumentParser
import Foundation
import TerminalSupport

/// Text arguments that may come from standard input instead.
enum StandardInput {
    /// `value`, or standard input when `value` is omitted or `-` (a prompt
    /// piped in from a file or another program). A person at a terminal who
    /// gave nothing gets the usage error, not a silent wait.
    static func argument(_ value: String?, name: String) throws -> String {
        if let value, value != "-" { return value }
        guard !TerminalStream.input.isTerminal else {
            throw ValidationError("give the \(name) as an argument, or pipe it in (\(name) -)")
        }
        let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ValidationError("the \(name) read from standard input is empty") }
        return trimmed
    }
}
