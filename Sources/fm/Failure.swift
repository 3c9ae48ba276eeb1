import ArgumentParser
import TerminalSupport

/// How every `fm` command ends on an error it did not expect from its
/// arguments (a generation that failed, a model that cannot load): the
/// description and the recovery suggestion on standard error
/// (``ErrorReport``, shared with the examples' programs), exit status 1.
/// (Argument errors are `ValidationError`s, which swift-argument-parser
/// reports the same way, with the usage.)
enum Failure {
    static func exit(_ error: any Error) -> ExitCode {
        if let code = error as? ExitCode { return code }
        ErrorReport.write(error)
        return .failure
    }
}
