import ChildProcess
import Foundation

/// The words in a photo, read by the `tesseract` command (Tesseract 4 or 5,
/// Debian's `tesseract-ocr`) through its TSV output.
///
/// Exists because Vision, which an Apple app reads receipts with, is not on
/// Linux, and Tesseract is: this turns an image into the engine-neutral
/// ``OCRWord``s that ``OCRRows`` lays out for a model. The command, not the
/// C library, keeps the package free of a system library a user may not
/// have: without Tesseract only this reader fails, with an error saying
/// what to install. Tesseract's TSV carries each word's box and confidence
/// but no alternate readings, so the words have none.
///
/// The process runs off the cooperative pool, is stopped when the calling
/// task is cancelled, and is stopped after ``Configuration/timeLimit``.
public struct TesseractOCR: Sendable {
    /// How Tesseract is run.
    public struct Configuration: Sendable, Hashable {
        /// The `tesseract` executable: a path, or a name looked up in `PATH`.
        public var executable: String
        /// Tesseract's language codes, `+`-separated (`eng`, `eng+deu`);
        /// each needs its trained data installed (`tesseract-ocr-deu`).
        public var languages: String
        /// Tesseract's page segmentation mode (`--psm`). The default, 6
        /// ("a single uniform block of text"), reads a receipt's rows and
        /// keeps an amount printed far right of its label as a word of its
        /// own; on the eval's rendered receipts modes 3 and 4 sometimes
        /// dropped such an amount altogether, and read fewer values from
        /// noisy photos (scripts/receipt_photos.py).
        public var pageSegmentationMode: Int
        /// Threads one image is read with (`OMP_THREAD_LIMIT`). One by
        /// default: on a machine that also runs the model, Tesseract's
        /// OpenMP threads compete for the cores and read slower, not faster.
        public var threads: Int
        /// How long one image may take before the process is stopped.
        public var timeLimit: Duration

        public init(
            executable: String = "tesseract", languages: String = "eng", pageSegmentationMode: Int = 6,
            threads: Int = 1, timeLimit: Duration = .seconds(60)
        ) {
            self.executable = executable
            self.languages = languages
            self.pageSegmentationMode = pageSegmentationMode
            self.threads = threads
            self.timeLimit = timeLimit
        }
    }

    public var configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The words Tesseract reads in the image at `image` (PNG, JPEG, TIFF,
    /// or anything its Leptonica reads), in its reading order.
    public func words(in image: URL) async throws(OCRError) -> [OCRWord] {
        guard FileManager.default.isReadableFile(atPath: image.path) else {
            throw OCRError(.imageUnreadable, "no readable image at \(image.path)")
        }
        guard let executable = Self.resolve(configuration.executable) else {
            throw OCRError(
                .engineNotFound,
                "\(configuration.executable) was not found: install Tesseract (Debian and Ubuntu: apt-get install tesseract-ocr; macOS: brew install tesseract) or set the executable's path"
            )
        }
        let arguments = [image.path, "-", "--psm", "\(configuration.pageSegmentationMode)", "-l", configuration.languages, "tsv"]
        let output: ChildProcess.Output
        do {
            output = try await ChildProcess.run(
                executable, arguments, environment: ["OMP_THREAD_LIMIT": "\(max(configuration.threads, 1))"],
                timeLimit: configuration.timeLimit)
        } catch {
            switch error {
            case .cannotStart(let reason): throw OCRError(.engineNotFound, "\(executable.path) could not be started: \(reason)")
            case .timedOut:
                throw OCRError(.timedOut, "tesseract took longer than \(configuration.timeLimit) on \(image.lastPathComponent) and was stopped")
            case .cancelled: throw OCRError(.cancelled, "cancelled: tesseract was stopped")
            }
        }
        guard output.status == 0 else {
            let reason = output.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
            throw OCRError(.engineFailed, "tesseract exited with status \(output.status) on \(image.lastPathComponent): \(reason)")
        }
        return try Self.words(fromTSV: output.standardOutput)
    }

    /// The words of Tesseract's TSV output: its word rows (level 5) with a
    /// text that is not blank, boxes normalised by the page row's size
    /// (level 1), confidences divided by 100.
    public static func words(fromTSV tsv: String) throws(OCRError) -> [OCRWord] {
        var pageSize: (width: Double, height: Double)?
        var words: [OCRWord] = []
        var sawHeader = false
        for line in tsv.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if !sawHeader {
                guard fields.first == "level" else { throw OCRError(.malformedOutput, "Tesseract's output does not start with its TSV header") }
                sawHeader = true
                continue
            }
            guard fields.count >= 11, let level = Int(fields[0]),
                let left = Double(fields[6]), let top = Double(fields[7]),
                let width = Double(fields[8]), let height = Double(fields[9])
            else {
                throw OCRError(.malformedOutput, "a row of Tesseract's TSV output cannot be read: \(line.prefix(80))")
            }
            switch level {
            case 1:
                pageSize = (width, height)
            case 5:
                let text = fields.count > 11 ? fields[11...].joined(separator: "\t").trimmingCharacters(in: .whitespaces) : ""
                guard !text.isEmpty else { continue }
                guard let pageSize,
                    let box = OCRWord.Box(
                        pixelLeft: left, top: top, width: width, height: height,
                        imageWidth: pageSize.width, imageHeight: pageSize.height)
                else {
                    throw OCRError(.malformedOutput, "Tesseract's TSV output gives a word before a page of positive size")
                }
                let confidence = Double(fields[10]).flatMap { $0 < 0 ? nil : $0 / 100 }
                words.append(OCRWord(text: text, box: box, confidence: confidence))
            default:
                continue
            }
        }
        guard sawHeader else { throw OCRError(.malformedOutput, "Tesseract's output is empty") }
        return words
    }

    /// `name` when it is a path to an executable file, else the first
    /// executable of that name in `PATH`.
    static func resolve(_ name: String) -> URL? {
        let manager = FileManager.default
        if name.contains("/") {
            return manager.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if manager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// Why an image gave no words.
public struct OCRError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The OCR program is not installed (or not where configured).
        case engineNotFound
        /// The image file is missing or cannot be read.
        case imageUnreadable
        /// The engine ran and failed (an image it cannot decode, a
        /// language whose data is not installed).
        case engineFailed
        /// The engine ran past its time limit and was stopped.
        case timedOut
        /// The request was cancelled and the engine stopped.
        case cancelled
        /// The engine's output is not what it should be.
        case malformedOutput
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
