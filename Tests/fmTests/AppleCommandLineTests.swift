import Foundation
import FoundationModels
import TestSupport
import Testing

extension FMTests {
    /// A script written for Apple's `fm` (macOS 27: `available`, `chat`,
    /// `count-tokens`, `license`, `respond`, `schema object`, `serve`, with
    /// their flags, `-m system` the on-device model) run against ours: each
    /// invocation's exit status and the shape of what it prints. Mechanics:
    /// the small model in `make test`'s first run. Every run has its own
    /// XDG folders, so the sessions and the stored default model are the
    /// test's, not the user's.
    @Suite("fm, Apple's command line", .serialized)
    struct AppleCommandLine {
        /// One run of `fm`.
        struct Run: CustomStringConvertible {
            var arguments: [String]
            var status: Int32
            var output: String
            var error: String
            var description: String { "fm \(arguments.joined(separator: " ")) → \(status)\nstdout: \(output)\nstderr: \(error)" }
            var trimmed: String { output.trimmingCharacters(in: .whitespacesAndNewlines) }
        }

        let home: URL

        init() throws {
            home = FileManager.default.temporaryDirectory.appendingPathComponent("fm-apple-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        }

        func file(_ name: String) -> URL { home.appendingPathComponent(name) }

        /// Runs `fm arguments` with `input` on standard input (nothing, by
        /// default: /dev/null), the test's own XDG folders and `environment`.
        func fm(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Run {
            var variables = ["XDG_CONFIG_HOME": file("config").path, "XDG_DATA_HOME": file("data").path]
            variables.merge(environment) { $1 }
            // ChildProcess: standard input from a file and both outputs to
            // files, so neither pipe can fill while the other is read.
            let result = try ChildProcess.runBlocking(CommandLineTool.binary(), arguments, environment: variables, input: input)
            return Run(arguments: arguments, status: result.status, output: result.standardOutput, error: result.standardError)
        }

        /// A short greedy answer: the small model's, quick and repeatable.
        static let short = ["-g", "--max-tokens", "8"]

        // MARK: help and unknown flags

        /// `fm --help` and `fm help` list Apple's commands first, in Apple's
        /// order, then this package's.
        @Test func helpShowsApplesCommandsFirstThenOurs() throws {
            for arguments in [["--help"], ["help"]] {
                let help = try fm(arguments)
                #expect(help.status == 0, "\(help)")
                let apple = ["available", "chat", "count-tokens", "license", "respond", "schema", "serve"]
                let positions = (apple + ["tokens", "eval", "bench"]).map { name in
                    help.output.range(of: "\n  \(name)")?.lowerBound
                }
                #expect(positions.allSatisfy { $0 != nil }, "\(help)")
                let found = positions.compactMap { $0 }
                #expect(found == found.sorted(), "out of order: \(help.output)")
                #expect(help.output.contains("availability"), "the alias is listed: \(help.output)")
            }
        }

        /// An unknown flag is a usage error on standard error, exit status 64,
        /// nothing on standard output, for every Apple command.
        @Test(arguments: [
            ["available", "--frobnicate"], ["chat", "--frobnicate"], ["count-tokens", "--frobnicate", "Hi"], ["license", "--frobnicate"],
            ["respond", "--frobnicate", "Hi"], ["schema", "object", "--name", "X", "--frobnicate"], ["respond", "--tool", "camera", "Hi"],
            ["respond", "--use-case", "poetry", "Hi"], ["respond", "--guardrails", "none", "Hi"], ["available", "-m", "gpt-4"],
        ])
        func anUnknownFlagOrValueFailsClearly(arguments: [String]) throws {
            let result = try fm(arguments)
            #expect(result.status == 64, "\(result)")
            #expect(result.output.isEmpty, "\(result)")
            let named = arguments.first { $0.hasPrefix("--frobnicate") || ["camera", "poetry", "none", "gpt-4"].contains($0) } ?? ""
            #expect(result.error.contains(named), "\(result)")
        }

        // MARK: available, license, serve

        @Test func availableChecksTheSystemModel() throws {
            for arguments in [["available"], ["available", "-m", "system"], ["available", "--model", "system"], ["availability"]] {
                let result = try fm(arguments)
                #expect(result.status == 0, "\(result)")
                #expect(result.output.hasPrefix("available: "), "\(result)")
            }
            let missing = try fm(["available", "-m", "/nonexistent/model.gguf"])
            #expect(missing.status == 1 && missing.output.hasPrefix("unavailable: "), "\(missing)")
        }

        /// `fm license` prints the package's LICENSE, word for word, and the
        /// licenses of the models installed; `--status` needs no agreement.
        @Test func licensePrintsThePackagesAndTheModelsLicenses() throws {
            let license = try String(contentsOf: TestMachine.packageRoot.appendingPathComponent("LICENSE"), encoding: .utf8)
            for arguments in [["license"], ["license", "--show"]] {
                let result = try fm(arguments)
                #expect(result.status == 0, "\(result)")
                #expect(result.output.contains(license.trimmingCharacters(in: .newlines)), "fm \(arguments) does not print LICENSE as it is")
                #expect(result.output.contains("llama.cpp") && result.output.contains("MIT"), "\(result.output.suffix(800))")
                if FileManager.default.fileExists(atPath: TestMachine.smallModel) {
                    #expect(
                        result.output.contains("SmolLM2-135M-Instruct") && result.output.contains("Apache License 2.0, by Hugging Face"),
                        "\(result.output.suffix(800))")
                }
            }
            let status = try fm(["license", "--status"])
            #expect(status.status == 0 && status.output.contains("No agreement needed"), "\(status)")
        }

        /// `-m system`, `--host`/`--port` and `--socket` go through to
        /// fm-serve, which lists them in its help (its `--socket` serving is
        /// tested with the openai client in FMServeTests).
        @Test func serveTakesHostPortAndSocket() throws {
            guard FileManager.default.isExecutableFile(atPath: TestMachine.product("fm-serve").path) else { return }
            let help = try fm(["serve", "-m", "system", "--host", "127.0.0.1", "--port", "1976", "--socket", file("fm.sock").path, "--options"])
            #expect(help.status == 0, "\(help)")
            #expect(help.output.contains("--host") && help.output.contains("--port") && help.output.contains("--socket"), "\(help)")
        }

        // MARK: count-tokens

        @Test func countTokensPrintsTheBareNumberWhenPiped() throws {
            let prompt = try fm(["count-tokens", "What is Swift?"])
            #expect(prompt.status == 0, "\(prompt)")
            let count = try #require(Int(prompt.trimmed), "\(prompt)")
            #expect(count > 3)

            let piped = try fm(["count-tokens"], input: "What is Swift?\n")
            #expect(Int(piped.trimmed) == count, "standard input counts as the argument: \(piped)")

            let withInstructions = try fm(["count-tokens", "-i", "You are a helpful assistant", "What is Swift?"])
            #expect((Int(withInstructions.trimmed) ?? 0) > count, "\(withInstructions)")

            let instructions = try fm(["count-tokens", "-i", "Answer concisely"])
            #expect((Int(instructions.trimmed) ?? 0) > 0, "\(instructions)")

            let texts = try fm(["count-tokens", "-q", "What is Swift?", "--text", "Answer with the history of the language and its design."])
            #expect((Int(texts.trimmed) ?? 0) > count, "\(texts)")
            let dash = try fm(["count-tokens", "-", "--text", "Answer with the history of the language and its design."], input: "What is Swift?\n")
            #expect(Int(dash.trimmed) == Int(texts.trimmed), "- reads the prompt from standard input: \(dash)")

            let nothing = try fm(["count-tokens"], input: "")
            #expect(nothing.status != 0 && nothing.output.isEmpty && nothing.error.contains("empty"), "\(nothing)")
        }

        // MARK: respond

        /// Streaming is the default, and prints what `--no-stream` prints.
        @Test func respondStreamsByDefaultAndPrintsTheSameAnswer() throws {
            let streamed = try fm(["respond"] + Self.short + ["What is Swift?"])
            let whole = try fm(["respond", "--no-stream"] + Self.short + ["What is Swift?"])
            let explicit = try fm(["respond", "--stream", "--greedy", "--max-tokens", "8", "-m", "system", "What is Swift?"])
            let piped = try fm(["respond"] + Self.short, input: "What is Swift?\n")
            for result in [streamed, whole, explicit, piped] {
                #expect(result.status == 0, "\(result)")
                #expect(!result.trimmed.isEmpty, "\(result)")
            }
            #expect(streamed.output == whole.output && explicit.output == whole.output && piped.output == whole.output)
        }

        @Test func respondTakesInstructionsTextAndTheSystemModelsOptions() throws {
            let verbose = try fm(
                [
                    "respond", "-m", "system", "-i", "Answer in one word.", "--text", "What is Swift?", "-v",
                    "--use-case", "content-tagging", "--guardrails", "permissive-content-transformations",
                ] + Self.short)
            #expect(verbose.status == 0, "\(verbose)")
            #expect(!verbose.trimmed.isEmpty, "\(verbose)")
            #expect(verbose.error.contains("use case content-tagging, guardrails permissive-content-transformations"), "\(verbose)")
            #expect(verbose.error.contains("answered in"), "\(verbose)")
            #expect(!verbose.output.contains("answered in"), "-v goes to standard error: \(verbose)")
            let general = try fm(["respond", "--use-case", "general", "--guardrails", "default"] + Self.short + ["Hi"])
            #expect(general.status == 0, "\(general)")
        }

        /// `--save-transcript` writes the library's Transcript JSON;
        /// `--resume` continues it, and count-tokens reads it.
        @Test func respondSavesAndResumesATranscript() throws {
            let transcript = file("session.json").path
            let first = try fm(["respond", "-i", "Be brief.", "--save-transcript", transcript] + Self.short + ["My name is Ada."])
            #expect(first.status == 0, "\(first)")
            let second = try fm(["respond", "--resume", transcript, "--save-transcript", transcript] + Self.short + ["What is my name?"])
            #expect(second.status == 0, "\(second)")
            let saved = try JSONDecoder().decode(Transcript.self, from: Data(contentsOf: URL(fileURLWithPath: transcript)))
            let kinds = saved.map { entry in
                switch entry {
                case .instructions: "instructions"
                case .prompt: "prompt"
                case .response: "response"
                default: "other"
                }
            }
            #expect(kinds == ["instructions", "prompt", "response", "prompt", "response"], "\(saved)")

            let counted = try fm(["count-tokens", "--transcript", transcript])
            #expect((Int(counted.trimmed) ?? 0) > 10, "\(counted)")
            let notATranscript = try fm(["respond", "--resume", file("missing.json").path, "Hi"])
            #expect(notATranscript.status != 0 && notATranscript.error.contains("missing.json"), "\(notATranscript)")
        }

        /// `fm schema object` builds the schema, `respond --schema` takes it as
        /// text or as a file, and the answer follows it.
        @Test func schemaObjectBuildsWhatRespondAnswers() throws {
            let address = try fm(["schema", "object", "--name", "Address", "--string", "city"])
            #expect(address.status == 0, "\(address)")
            let built = try fm([
                "schema", "object", "--name", "Person", "--string", "name", "--description", "The person's name",
                "--int", "age", "--optional", "--boolean", "retired", "--double", "height", "--string", "tags", "--array",
                "--string", "work.company", "--object", "home", "--schema", address.trimmed,
            ])
            #expect(built.status == 0, "\(built)")
            let schema = try #require(try JSONSerialization.jsonObject(with: Data(built.output.utf8)) as? [String: Any], "\(built)")
            #expect(schema["title"] as? String == "Person")
            let properties = try #require(schema["properties"] as? [String: [String: Any]], "\(built)")
            #expect(properties["name"]?["description"] as? String == "The person's name")
            #expect(properties["age"]?["type"] as? String == "integer")
            #expect(properties["retired"]?["type"] as? String == "boolean")
            #expect(properties["height"]?["type"] as? String == "number")
            #expect(properties["tags"]?["type"] as? String == "array" && (properties["tags"]?["items"] as? [String: String])?["type"] == "string")
            #expect((properties["work"]?["properties"] as? [String: Any])?["company"] != nil, "dotted names nest: \(built)")
            #expect(properties["home"]?["title"] as? String == "Address", "\(built)")
            #expect(schema["required"] as? [String] == ["name", "retired", "height", "tags", "work", "home"], "--optional: \(built)")
            #expect(schema["x-order"] as? [String] == ["name", "age", "retired", "height", "tags", "work", "home"], "\(built)")

            let union = try fm([
                "schema", "object", "--name", "SearchResult", "--anyOf",
                "--schema", try fm(["schema", "object", "--name", "Found", "--string", "name"]).trimmed,
                "--schema", try fm(["schema", "object", "--name", "NotFound", "--string", "reason"]).trimmed,
            ])
            #expect(union.status == 0, "\(union)")
            let choices = try #require((try JSONSerialization.jsonObject(with: Data(union.output.utf8)) as? [String: Any])?["anyOf"] as? [Any])
            #expect(choices.count == 2, "\(union)")

            for mistake in [["--string", "name"], ["--name", "X", "--array"], ["--name", "X", "--object", "a"], ["--name", "X", "--anyOf"]] {
                let result = try fm(["schema", "object"] + mistake)
                #expect(result.status == 64 && result.output.isEmpty && result.error.hasPrefix("Error: "), "\(result)")
            }

            let city = try fm(["schema", "object", "--name", "City", "--string", "name", "--integer", "population"])
            let schemaFile = file("city.json")
            try Data(city.output.utf8).write(to: schemaFile)
            for value in [city.trimmed, schemaFile.path] {
                let answer = try fm(["respond", "-g", "--max-tokens", "40", "--schema", value, "Describe Paris."])
                #expect(answer.status == 0, "\(answer)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any], "\(answer)")
                #expect(object["name"] is String && object["population"] is Int, "\(answer)")
            }
        }

        /// `--tool ocr` offers the OCR tool (Tesseract); `--tool barcode`
        /// offers zbar's, or says what to install.
        @Test func respondAndChatOfferTheBuiltInTools() throws {
            let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            let barcodeInstalled = path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/zbarimg") }
            let tesseractInstalled = path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/tesseract") }
            let ocr = try fm(["respond", "--tool", "ocr"] + Self.short + ["Hi"])
            #expect(ocr.status == (tesseractInstalled ? 0 : 64), "\(ocr)")
            let barcode = try fm(["respond", "--tool", "barcode", "--tool", "ocr"] + Self.short + ["Hi"])
            if barcodeInstalled && tesseractInstalled {
                #expect(barcode.status == 0, "\(barcode)")
            }
            // Without zbar (no PATH to find it on), the error names the package.
            let missing = try fm(["respond", "--tool", "barcode", "Hi"], environment: ["PATH": file("empty").path])
            #expect(missing.status == 64 && missing.error.contains("apt-get install zbar-tools"), "\(missing)")
            let chat = try fm(["chat", "--tool", "barcode"], input: "", environment: ["PATH": file("empty").path])
            #expect(chat.status == 64 && chat.error.contains("zbar-tools"), "\(chat)")
        }

        // MARK: chat

        /// A chat is saved as a session; `--continue` and `-r NAME` take it up
        /// again; `--set-default-model` is stored in the XDG config folder.
        @Test func chatSavesSessionsAndResumesThem() throws {
            let first = try fm(["chat", "-i", "Be brief.", "-m", "system"] + Self.short, input: "Hi\n")
            #expect(first.status == 0, "\(first)")
            #expect(!first.trimmed.isEmpty, "\(first)")
            let sessions = file("data/swift-foundation-models/fm-sessions")
            let saved = try FileManager.default.contentsOfDirectory(atPath: sessions.path)
            #expect(saved.count == 1, "\(saved)")
            let name = try #require(saved.first).replacingOccurrences(of: ".json", with: "")
            #expect(first.error.contains("fm chat --resume \(name)"), "\(first)")

            let continued = try fm(["chat", "--continue"] + Self.short, input: "Thanks\n")
            #expect(continued.status == 0 && continued.error.contains("resumed 1 turn"), "\(continued)")
            let resumed = try fm(["chat", "-r", name] + Self.short, input: "Bye\n")
            #expect(resumed.status == 0 && resumed.error.contains("resumed 2 turns"), "\(resumed)")
            let transcript = try JSONDecoder().decode(Transcript.self, from: Data(contentsOf: sessions.appendingPathComponent("\(name).json")))
            #expect(transcript.count == 7, "instructions and three turns: \(transcript)")

            let unknown = try fm(["chat", "--resume", "no-such-session"])
            #expect(unknown.status == 64 && unknown.error.contains("no-such-session"), "\(unknown)")
            let both = try fm(["chat", "--continue", "-r", name])
            #expect(both.status == 64, "\(both)")

            let setDefault = try fm(["chat", "--set-default-model", "system"], input: "")
            #expect(setDefault.status == 0, "\(setDefault)")
            let settings = try String(contentsOf: file("config/swift-foundation-models/fm.json"), encoding: .utf8)
            #expect(settings.contains("\"defaultModel\" : \"system\""), "\(settings)")
        }

        /// With no FOUNDATION_MODELS_MODEL, the stored default model is the
        /// one every command runs; `-m system` is the installed default.
        @Test func theStoredDefaultModelIsUsedWhereNoModelIsNamed() throws {
            let stored = TestMachine.smallModel
            try #require(FileManager.default.fileExists(atPath: stored), "needs the small model")
            let set = try fm(["chat", "--set-default-model", stored], input: "", environment: ["FOUNDATION_MODELS_MODEL": ""])
            #expect(set.status == 0, "\(set)")
            let available = try fm(["available"], environment: ["FOUNDATION_MODELS_MODEL": ""])
            #expect(available.output.contains((stored as NSString).lastPathComponent), "\(available)")
            let missing = try fm(["chat", "--set-default-model", "/nonexistent/model.gguf"])
            #expect(missing.status == 64 && missing.error.contains("/nonexistent/model.gguf"), "\(missing)")
        }
    }

    /// `--image` where the model has no vision: the image's text, read by
    /// Tesseract, goes into the prompt, and standard error says so. The
    /// image is rendered by Pillow (scripts/photo_env.sh).
    @Suite("fm --image through OCR", .needs(.tesseract))
    struct AppleCommandLineImages {
        @Test func anImagesTextGoesIntoThePromptAndStandardErrorSaysSo() throws {
            let python = try TestMachine.python(environment: "photo_env.sh")
            let image = FileManager.default.temporaryDirectory.appendingPathComponent("fm-image-\(UUID().uuidString).png")
            defer { try? FileManager.default.removeItem(at: image) }
            let render = try TestMachine.run([
                python, "-c",
                """
                import sys
                from PIL import Image, ImageDraw, ImageFont
                font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 36)
                image = Image.new("L", (900, 200), 255)
                draw = ImageDraw.Draw(image)
                draw.text((30, 30), "INVOICE 4217", font=font, fill=0)
                draw.text((30, 100), "TOTAL DUE 12.50 EUR", font=font, fill=0)
                image.save(sys.argv[1])
                """, image.path,
            ])
            try #require(render.status == 0, "\(render.standardOutput)")

            let tool = AppleCommandLine.self
            let test = try tool.init()
            let bare = try test.fm(["count-tokens", "--text", "What is the total?"])
            let counted = try test.fm(["count-tokens", "--image", image.path, "--text", "What is the total?"])
            #expect((Int(counted.trimmed) ?? 0) > (Int(bare.trimmed) ?? .max), "the image's text is counted: \(counted) \(bare)")
            #expect(counted.error.contains("no vision"), "\(counted)")

            let answer = try test.fm([
                "respond", "--image", image.path, "--label", "invoice", "--text", "What is the total due?",
                "-g", "--max-tokens", "30", "-v",
            ])
            #expect(answer.status == 0, "\(answer)")
            #expect(answer.error.contains("--image \(image.path): the model has no vision"), "\(answer)")
            #expect(answer.output.contains("12.50"), "the small model reads the total from the OCR text: \(answer)")

            let missing = try test.fm(["respond", "--image", "/nonexistent/photo.jpg", "Hi"])
            #expect(missing.status == 64 && missing.error.contains("/nonexistent/photo.jpg"), "\(missing)")
            let unpaired = try test.fm(["respond", "--image", image.path, "--label", "a", "--label", "b", "Hi"])
            #expect(unpaired.status == 64 && unpaired.error.contains("--label"), "\(unpaired)")
        }
    }
}

extension FMTests {
    /// `--tool barcode` end to end on the default model: the model calls the
    /// tool with the image's path, zbar reads the code, and the answer has
    /// its digits (in the quality run, on the default model).
    @Suite("fm --tool on the default model", .tags(.defaultModel), .needs(.defaultModel))
    struct AppleCommandLineTools {
        @Test(
            .enabled(
                if: ProcessInfo.processInfo.environment["PATH"].map { path in
                    path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/zbarimg") }
                } ?? false, "needs zbar's zbarimg on PATH (`make setup` installs Debian's zbar-tools)"))
        func theModelCallsTheBarcodeToolAndAnswersWithTheCode() throws {
            let image = FileManager.default.temporaryDirectory.appendingPathComponent("fm-ean13-\(UUID().uuidString).pbm")
            try Data(Self.ean13PBM.utf8).write(to: image)
            defer { try? FileManager.default.removeItem(at: image) }
            let test = try AppleCommandLine()
            let result = try test.fm([
                "respond", "--tool", "barcode", "-g", "--max-tokens", "80", "-v",
                "What number does the barcode in \(image.path) encode?",
            ])
            #expect(result.status == 0, "\(result)")
            #expect(result.error.contains("tool call: barcode("), "\(result)")
            #expect(result.output.contains("5901234123457"), "\(result)")
        }

        /// EAN-13 5901234123457, 3 pixels a module, as a plain PBM (the bars of
        /// ZBarBarcodeReaderTests.ean13, written out).
        static let ean13PBM: String = {
            let bits = "10100010110100111011001100100110111101001110101010110011011011001000010101110010011101000100101"
            let row = String(repeating: "0", count: 30) + bits.map { String(repeating: $0, count: 3) }.joined() + String(repeating: "0", count: 30)
            let line = row.map(String.init).joined(separator: " ")
            return "P1\n\(row.count) 60\n" + Array(repeating: line, count: 60).joined(separator: "\n") + "\n"
        }()
    }
}
