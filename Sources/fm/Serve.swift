import ArgumentParser
import Foundation

extension FM {
    /// `fm serve`: runs fm-serve, the OpenAI-compatible server, which sits
    /// beside fm (a program of its own, so fm's build does not compile the
    /// HTTP server). Every argument goes to it.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the model over an OpenAI-compatible HTTP API (runs fm-serve; `fm serve --options` lists its flags).",
            discussion: """
                Flags: --host, --port, --model (system or a GGUF file), --model-name, --adapter, --server, --server-model, \
                --server-api-key-env, --api-key (or FM_SERVE_API_KEY), --parallel, --max-queue, --context-size, --max-tokens, \
                --max-body-bytes, --idle-timeout, --shutdown-timeout, --socket PATH (a Unix domain socket instead of TCP), \
                --cors-origin, --log-format, --trace.
                """
        )

        @Argument(parsing: .captureForPassthrough, help: "fm-serve's arguments.")
        var arguments: [String] = []

        func validate() throws {
            _ = try Self.forwarded(arguments)
        }

        func run() throws {
            let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            let server = me.deletingLastPathComponent().appendingPathComponent("fm-serve").path
            guard FileManager.default.isExecutableFile(atPath: server) else {
                throw ValidationError("fm serve runs fm-serve, which is not built beside fm (\(server)): swift build --product fm-serve")
            }
            let forwarded = try Self.forwarded(arguments)
            let argv = ([server] + forwarded).map { strdup($0) } + [nil]
            execv(server, argv)
            throw ValidationError("could not run \(server): \(String(cString: strerror(errno)))")
        }

        /// fm-serve's arguments for Apple's: `-m`/`--model system` is the
        /// default model (fm-serve's default, so dropped); the rest, Apple's
        /// `--host`, `--port` and `--socket` among them, go through as they are.
        static func forwarded(_ arguments: [String]) throws -> [String] {
            var result: [String] = []
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                switch argument {
                case "--options": result.append("--help")
                case "-m", "--model":
                    guard let value = rest.popFirst() else { throw ValidationError("\(argument) needs a value: system or a GGUF file") }
                    if value != ModelOptions.system { result += ["--model", value] }
                case "--model=system": break
                default: result.append(argument)
                }
            }
            return result
        }
    }
}
