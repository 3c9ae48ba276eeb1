import Foundation

/// The shape every example program shares: a heading, steps that each
/// print a labelled result with the time it took, and one way to end on an
/// error (``ErrorReport`` on standard error, exit status 1).
@MainActor
package enum ExampleProgram {
    /// Runs `body`; an error it throws is reported and the process exits 1.
    package static func run(_ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            ErrorReport.write(error)
            exit(1)
        }
    }

    /// The program's title line.
    nonisolated package static func heading(_ text: String) {
        let out = TerminalStream.output
        out.line(out.styled("== " + text, .bold))
    }

    /// "label (1.23 s): result"
    nonisolated package static func result(_ label: String, _ text: String, seconds: Double? = nil) {
        let out = TerminalStream.output
        let time = seconds.map { " " + out.styled("(\(Stopwatch.format($0)))", .dim) } ?? ""
        out.line(out.styled(label, .cyan) + time + ": " + text)
    }

    /// A remark: what a step shows, in the dimmed style.
    nonisolated package static func note(_ text: String) {
        let out = TerminalStream.output
        out.line(out.styled("   " + text, .dim))
    }

    /// Runs `work` and prints its result, labelled and timed.
    @discardableResult
    package static func step<T>(_ label: String, show: (T) -> String, _ work: () async throws -> T) async rethrows -> T {
        let stopwatch = Stopwatch()
        let value = try await work()
        result(label, show(value), seconds: stopwatch.seconds)
        return value
    }
}
