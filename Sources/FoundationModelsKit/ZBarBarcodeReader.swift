import ChildProcess
import Foundation

/// The barcodes and QR codes in an image, read by zbar's `zbarimg` command
/// (Debian's `zbar-tools`).
///
/// Exists because Vision's barcode detection, which Apple's `fm --tool
/// barcode` uses, is not on Linux: as with ``TesseractOCR``, a command
/// rather than a C library keeps the package free of a system library a
/// user may not have, and without zbar only this reader fails, with an
/// error naming the package to install. The process runs through
/// ``ChildProcess``: off the cooperative pool, stopped on cancellation and
/// after ``Configuration/timeLimit``.
public struct ZBarBarcodeReader: Sendable {
    /// One code found in an image.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// zbar's name for the symbology: `EAN-13`, `QR-Code`, `CODE-128`…
        public var symbology: String
        /// The decoded content (a QR code's may span lines).
        public var value: String

        public init(symbology: String, value: String) {
            self.symbology = symbology
            self.value = value
        }

        public var description: String { "\(symbology): \(value)" }
    }

    /// How zbarimg is run.
    public struct Configuration: Sendable, Hashable {
        /// The `zbarimg` executable: a path, or a name looked up in `PATH`.
        public var executable: String
        /// How long one image may take before the process is stopped.
        public var timeLimit: Duration

        public init(executable: String = "zbarimg", timeLimit: Duration = .seconds(30)) {
            self.executable = executable
            self.timeLimit = timeLimit
        }
    }

    public var configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Whether the executable is installed (so a command can refuse
    /// `--tool barcode` up front rather than when the model calls it).
    public var isInstalled: Bool { TesseractOCR.resolve(configuration.executable) != nil }

    /// The error a reader without its executable throws, with the install
    /// command in it.
    public var notInstalled: OCRError {
        OCRError(
            .engineNotFound,
            "\(configuration.executable) was not found: install zbar "
                + "(Debian and Ubuntu: apt-get install zbar-tools; macOS: brew install zbar) or set the executable's path")
    }

    /// The codes in the image at `image` (PNG, JPEG, PBM… whatever zbar's
    /// ImageMagick reads), in zbar's order; empty when it finds none.
    public func codes(in image: URL) async throws(OCRError) -> [Code] {
        guard FileManager.default.isReadableFile(atPath: image.path) else {
            throw OCRError(.imageUnreadable, "no readable image at \(image.path)")
        }
        guard let executable = TesseractOCR.resolve(configuration.executable) else { throw notInstalled }
        let output: ChildProcess.Output
        do {
            output = try await ChildProcess.run(executable, ["--quiet", image.path], timeLimit: configuration.timeLimit)
        } catch {
            switch error {
            case .cannotStart(let reason): throw OCRError(.engineNotFound, "\(executable.path) could not be started: \(reason)")
            case .timedOut:
                throw OCRError(.timedOut, "zbarimg took longer than \(configuration.timeLimit) on \(image.lastPathComponent) and was stopped")
            case .cancelled: throw OCRError(.cancelled, "cancelled: zbarimg was stopped")
            }
        }
        // zbarimg exits 4 when the image decoded and held no code.
        if output.status == 4 { return [] }
        guard output.status == 0 else {
            let reason = output.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
            throw OCRError(.engineFailed, "zbarimg exited with status \(output.status) on \(image.lastPathComponent): \(reason)")
        }
        return Self.codes(fromOutput: output.standardOutput)
    }

    /// zbar's names for the symbologies it reads (zbar_get_symbol_name).
    static let symbologies: Set<String> = [
        "EAN-2", "EAN-5", "EAN-8", "EAN-13", "UPC-A", "UPC-E", "ISBN-10", "ISBN-13", "COMPOSITE", "I2/5", "DataBar", "DataBar-Exp",
        "Codabar", "CODE-39", "CODE-93", "CODE-128", "PDF417", "QR-Code", "SQ-Code",
    ]

    /// zbarimg's lines, `SYMBOLOGY:content`; a line that does not start with
    /// a symbology's name continues the previous code's content (a QR code
    /// holding several lines).
    public static func codes(fromOutput output: String) -> [Code] {
        var codes: [Code] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if let colon = line.firstIndex(of: ":"), symbologies.contains(String(line[..<colon])) {
                codes.append(Code(symbology: String(line[..<colon]), value: String(line[line.index(after: colon)...])))
            } else if !codes.isEmpty {
                codes[codes.count - 1].value += "\n" + line
            }
        }
        // The output's final newline is not content.
        if let last = codes.indices.last, codes[last].value.hasSuffix("\n") {
            codes[last].value = String(codes[last].value.dropLast())
        }
        return codes
    }
}

extension TesseractOCR {
    /// Whether the executable is installed (so `fm --tool ocr` and
    /// `--image` can say what to install before the model loads).
    public var isInstalled: Bool { Self.resolve(configuration.executable) != nil }
}
