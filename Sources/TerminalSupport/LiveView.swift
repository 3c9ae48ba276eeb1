#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A block of lines redrawn in place as a streamed answer grows: on a
/// terminal each ``draw(_:)`` replaces the previous frame (lines cut to the
/// terminal's width so the cursor arithmetic holds); elsewhere only the
/// final frame is written, by ``finish(_:)``, so a log or a pipe gets the
/// finished answer once instead of every snapshot.
package final class LiveView {
    private let stream: TerminalStream
    private var drawnLines = 0
    package private(set) var frames = 0

    package init(stream: TerminalStream = .output) {
        self.stream = stream
    }

    /// Whether intermediate frames are shown.
    package var isLive: Bool { stream.isTerminal }

    /// Shows `lines` in place of the previous frame (on a terminal only).
    package func draw(_ lines: [String]) {
        frames += 1
        guard isLive else { return }
        let width = Self.columns(stream.descriptor)
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A\r\u{1B}[J" : ""
        for line in lines {
            text += (line.count > width ? String(line.prefix(max(1, width - 1))) + "…" : line) + "\n"
        }
        stream.write(text)
        drawnLines = lines.count
    }

    /// The final frame, whole (no cutting): replaces the live frame on a
    /// terminal, written once elsewhere.
    package func finish(_ lines: [String]) {
        if isLive, drawnLines > 0 { stream.write("\u{1B}[\(drawnLines)A\r\u{1B}[J") }
        stream.write(lines.map { $0 + "\n" }.joined())
        drawnLines = 0
    }

    private static func columns(_ descriptor: Int32) -> Int {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
