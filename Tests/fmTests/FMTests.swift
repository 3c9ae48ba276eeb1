import TestSupport
import Testing

/// The `fm` program (Sources/fm), run as a child process (`swift build
/// --build-tests` builds it beside the test bundle): its command line,
/// Apple's, and `fm chat` through a pseudo-terminal. A target of its own,
/// as the program is, apart from the library's tests. The program loads
/// the model, so its suites take their turn with every other test that
/// loads one in this process (`.needs(.model)`), one at a time, as they
/// did among the library's on-device suites.
@Suite("fm", .serialized, .tags(.model), .needs(.model))
enum FMTests {}
