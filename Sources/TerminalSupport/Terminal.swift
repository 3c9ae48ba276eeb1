import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error, with what the command-line programs
/// (`fm` and the examples) need to know about them: whether a person is
/// watching (a terminal) and whether colour is welcome.
///
/// Colour and progress are for people: they appear only on a terminal, and
/// colour not when `NO_COLOR` is set or `TERM` is `dumb`
/// (https://no-color.org). Piped output stays plain text, so scripts and
/// tests read exactly the answer.
package struct TerminalStream: Sendable {
    package let descriptor: Int32

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    package static let input = TerminalStream(descriptor: STDIN_FILENO)
    package static let output = TerminalStream(descriptor: STDOUT_FILENO)
    package static let error = TerminalStream(descriptor: STDERR_FILENO)

    /// Whether the stream is a terminal.
    package var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Whether text written here may be coloured.
    package var usesColour: Bool {
        guard isTerminal else { return false }
        let environment = ProcessInfo.processInfo.environment
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// Writes `text` as is (no newline added), unbuffered.
    package func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Writes `text` and a newline.
    package func line(_ text: String = "") { write(text + "\n") }

    /// `text` in `style` when this stream takes colour, else as is.
    package func styled(_ text: String, _ style: TerminalStyle) -> String {
        usesColour ? style.prefix + text + "\u{1B}[0m" : text
    }
}

/// The few styles the programs use.
package struct TerminalStyle: Sendable {
    let prefix: String
    package static let bold = TerminalStyle(prefix: "\u{1B}[1m")
    package static let dim = TerminalStyle(prefix: "\u{1B}[2m")
    package static let red = TerminalStyle(prefix: "\u{1B}[31m")
    package static let green = TerminalStyle(prefix: "\u{1B}[32m")
    package static let yellow = TerminalStyle(prefix: "\u{1B}[33m")
    package static let cyan = TerminalStyle(prefix: "\u{1B}[36m")
}

/// Progress for people watching: lines on standard error, only when it is a
/// terminal (`fm respond … 2>log` and tests that read standard error see
/// only errors).
package enum Progress {
    package static func report(_ text: String) {
        let stream = TerminalStream.error
        guard stream.isTerminal else { return }
        stream.line(stream.styled(text, .dim))
    }
}

/// How a command-line program reports an error it cannot recover from: the
/// description and the recovery suggestion on standard error, after
/// `error: `; the caller exits non-zero.
package enum ErrorReport {
    package static func write(_ error: any Error) {
        let localized = error as? LocalizedError
        let stream = TerminalStream.error
        var lines = [stream.styled("error:", .red) + " " + (localized?.errorDescription ?? "\(error)")]
        if let suggestion = localized?.recoverySuggestion, !suggestion.isEmpty { lines.append(suggestion) }
        stream.line(lines.joined(separator: "\n"))
    }
}

/// Wall time of a piece of work, for the timings the demo prints.
package struct Stopwatch: Sendable {
    private let start = ContinuousClock.now

    package init() {}

    /// Seconds since the stopwatch was made.
    package var seconds: Double {
        let (whole, fraction) = (ContinuousClock.now - start).components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// "1.23 s" (or "850 ms" below a second).
    package var formatted: String { Self.format(seconds) }

    package static func format(_ seconds: Double) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.2f s", seconds)
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
