import Testing

@testable import LlamaKit

/// The check that refuses a llama.cpp library with another C API before
/// any call into it (``LlamaBackend/compatibilityProblem``).
@Suite struct LlamaCompatibilityTests {
    @Test func theLoadedPinnedReleaseIsAccepted() {
        #expect(LlamaBackend.compatibilityProblem == nil)
        #expect(LlamaBackend.isSupported)
    }

    @Test func laterBuildsOfTheSameAPIAreAccepted() {
        #expect(LlamaBackend.compatibilityProblem(ggmlVersion: "0.26.0", llamaVersion: "0.6.0-dev", library: nil) == nil)
        #expect(LlamaBackend.compatibilityProblem(ggmlVersion: "0.26.3", llamaVersion: "0.6.2", library: nil) == nil)
    }

    @Test func anotherAPIIsRefusedSayingWhatWasFound() throws {
        let problem = try #require(
            LlamaBackend.compatibilityProblem(
                ggmlVersion: "0.27.0", llamaVersion: "0.6.0", library: "/opt/llama/lib/libggml-base.so.0"
            ))
        #expect(problem.contains("ggml 0.27.0"))
        #expect(problem.contains("/opt/llama/lib/libggml-base.so.0"))
        #expect(problem.contains("b11434"))
        #expect(problem.contains("scripts/setup.sh"))
        #expect(LlamaBackend.compatibilityProblem(ggmlVersion: "0.26.0", llamaVersion: "0.7.0", library: nil) != nil)
        #expect(LlamaBackend.compatibilityProblem(ggmlVersion: "garbage", llamaVersion: "0.6.0", library: nil) != nil)
    }

    @Test func aLibraryTooOldToReportItsVersionIsRefused() throws {
        let problem = try #require(LlamaBackend.compatibilityProblem(ggmlVersion: nil, llamaVersion: nil, library: nil))
        #expect(problem.contains("too old"))
    }

    @Test func theLibraryIsFoundInTheProcessMap() throws {
        LlamaBackend.initialize()
        let path = try #require(LlamaBackend.loadedLibraryPath("libggml-base"))
        #expect(path.hasSuffix(".so") || path.contains(".so."))
    }
}
