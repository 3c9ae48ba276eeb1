import ArgumentParser
import Foundation
import FoundationModels

extension FM {
    /// `fm license`: the licenses that cover what runs here — the package's
    /// (Apache 2.0), llama.cpp's, and each installed model's. Apple's fm
    /// asks the user to agree to Apple's terms; these licenses ask for no
    /// agreement, so `--status` says so and nothing prompts.
    struct License: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the licenses of this package and of the installed models.",
            discussion: "No agreement is asked for: the package and its models are under open licenses, which the output names."
        )

        @Flag(help: "Print the licenses (the default; nothing here prompts).")
        var show = false

        @Flag(help: "Say whether an agreement is needed (none is) and exit 0.")
        var status = false

        func run() throws {
            if status {
                print(
                    "No agreement needed: swift-foundation-models is under the Apache License 2.0 and asks for none; fm license shows the models' licenses."
                )
                return
            }
            print("swift-foundation-models")
            print(PackageLicense.text)
            print(
                "\nllama.cpp (the in-process engine, linked into this program): MIT License, https://github.com/ggml-org/llama.cpp/blob/master/LICENSE"
            )
            print("\nInstalled models (${XDG_CACHE_HOME:-~/.cache}/swift-foundation-models/models, scripts/setup.sh):")
            let installed = KnownModel.all.filter { FileManager.default.fileExists(atPath: $0.path) }
            if installed.isEmpty { print("  none (make setup installs them)") }
            for model in installed { print("  \(model.name), \(model.file): \(model.license)") }
            let current = SystemLanguageModel.Configuration.default.modelPath
            if FileManager.default.fileExists(atPath: current), !KnownModel.all.contains(where: { $0.path == current }) {
                print(
                    "  \(current): the default model here (FOUNDATION_MODELS_MODEL), not one setup installs; see where it came from for its license")
            }
        }
    }
}

/// The models `scripts/setup.sh` installs, where it puts them, and their
/// licenses.
struct KnownModel {
    var name: String
    var file: String
    var sha256: String
    var license: String

    /// `<cache>/models/<sha256>/<file>`, beside the installed default model.
    var path: String {
        SystemLanguageModel.Configuration.installedDefaultModelFile.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(sha256).appendingPathComponent(file).path
    }

    static let all: [KnownModel] = [
        KnownModel(
            name: "Qwen2.5-Coder-1.5B-Instruct (the default model)", file: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            license: "Apache License 2.0, by the Qwen team, Alibaba Cloud (https://huggingface.co/Qwen/Qwen2.5-Coder-1.5B-Instruct)"),
        KnownModel(
            name: "Qwen2.5-Coder-0.5B-Instruct (the fast model)", file: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            license: "Apache License 2.0, by the Qwen team, Alibaba Cloud (https://huggingface.co/Qwen/Qwen2.5-Coder-0.5B-Instruct)"),
        KnownModel(
            name: "SmolLM2-135M-Instruct (the small model)", file: "SmolLM2-135M-Instruct.Q4_1.gguf",
            sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            license: "Apache License 2.0, by Hugging Face (https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct)"),
        KnownModel(
            name: "Gemma 3 270M (the benchmark model)", file: "gemma-3-270m-q4_k_m.gguf",
            sha256: "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
            license: "Gemma Terms of Use, by Google (https://ai.google.dev/gemma/terms)"),
    ]
}
