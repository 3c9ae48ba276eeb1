import ArgumentParser
import Foundation

extension FM {
    /// `fm serve`: runs fm-serve, the OpenAI-compatible server, which sits
    /// beside fm (a program of its own, so fm's build does not compile the
    /// HTTP server). Every argument goes to it.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the model over an OpenAI-compatible HTTP API (runs fm-serve; `fm serve --options` lists its flags).",
            discussion: "Flags: --host, --port, --model, --model-name, --adapter, --server, --server-model, --server-api-key-env, --api-key (or FM_SERVE_API_KEY), --parallel, --max-queue, --context-size, --max-tokens, --max-body-bytes, --idle-timeout, --shutdown-timeout."
        )

        @Argument(parsing: .captureForPassthrough, help: "fm-serve's arguments.")
        var arguments: [String] = []

        func run() throws {
            let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            let server = me.deletingLastPathComponent().appendingPathComponent("fm-serve").path
            guard FileManager.default.isExecutableFile(atPath: server) else {
                throw ValidationError("fm serve runs fm-serve, which is not built beside fm (\(server)): swift build --product fm-serve")
            }
            let forwarded = arguments.map { $0 == "--options" ? "--help" : $0 }
            let argv = ([server] + forwarded).map { strdup($0) } + [nil]
            execv(server, argv)
            throw ValidationError("could not run \(server): \(String(cString: strerror(errno)))")
        }
    }
}
