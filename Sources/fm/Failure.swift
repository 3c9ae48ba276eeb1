import ArgumentParser
import Foundation

/// How every `fm` command ends on an error it did not expect from its
/// arguments (a generation that failed, a model that cannot load): the
/// description and the recovery suggestion on standard error, exit status 1.
/// (Argument errors are `ValidationError`s, which swift-argument-parser
/// reports the same way, with the usage.)
enum Failure {
    static func exit(_ error: any Error) -> ExitCode {
        let localized = error as? LocalizedError
        var lines = ["error: " + (localized?.errorDescription ?? "\(error)")]
        if let suggestion = localized?.recoverySuggestion, !suggestion.isEmpty { lines.append(suggestion) }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        return .failure
    }
}
