import CLlama

/// A LoRA adapter loaded for one model: low-rank changes to some of its
/// weight matrices, trained for one task, that a context applies to every
/// forward pass (llama.cpp's `llama_adapter_lora`).
///
/// It exists apart from the model because one set of weights serves both the
/// base model and its adapted forms: a context either applies the adapter or
/// does not (``LlamaBatchContext/init(model:parameters:sequences:adapters:)``).
///
/// Sendable: `@unchecked` is sound because
/// - the stored state is immutable (`let`s set in `init`),
/// - llama.cpp only reads an adapter (while building a context's graph), and
///   never frees it while a context holds it: every context that applies it
///   keeps a strong reference,
/// - it keeps its model alive (llama.cpp ties an adapter to its model), and
///   `llama_adapter_lora_free` runs only in `deinit`.
package final class LlamaAdapter: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The model the adapter was loaded for.
    package let model: LlamaModel
    /// The adapter's file.
    package let path: String

    /// Loads the LoRA adapter at `path` for `model`. The file is checked
    /// against the model first (``LoRACompatibility``), so a wrong file is
    /// refused with the reason rather than reaching llama.cpp's own checks.
    /// - Throws: `LlamaError.fileNotFound`, `.notAGGUFFile`, `.notAnAdapter`,
    ///   `.adapterMismatch`, `.adapterLoadFailed`.
    package init(path: String, model: LlamaModel) throws {
        try LoRACompatibility.check(adapterPath: path, modelPath: model.path)
        guard let adapter = llama_adapter_lora_init(model.pointer, path) else {
            throw LlamaError.adapterLoadFailed(path: path)
        }
        self.pointer = adapter
        self.model = model
        self.path = path
    }

    deinit {
        llama_adapter_lora_free(pointer)
    }
}

/// Whether a LoRA adapter in GGUF form fits a base model, read from the two
/// files' headers alone (no weights loaded): the checks llama.cpp makes when
/// it loads an adapter, with the reason in words.
package enum LoRACompatibility {
    /// Throws `notAnAdapter` or `adapterMismatch` when the adapter at
    /// `adapterPath` cannot be applied to the model at `modelPath`.
    /// Each file's header is parsed once.
    package static func check(adapterPath: String, modelPath: String) throws {
        let (metadata, adapterTensors, alpha) = try GGUFFile.withHeader(path: adapterPath) { context in
            (GGUFFile.metadata(in: context, maximumArrayLength: 0), GGUFFile.tensorShapes(in: context), alphaProblem(in: context))
        }
        if let reason = adapterProblem(metadata: metadata) ?? alpha {
            throw LlamaError.notAnAdapter(path: adapterPath, reason: reason)
        }
        let (modelArchitecture, modelTensors) = try GGUFFile.withHeader(path: modelPath) { context in
            (GGUFFile.string("general.architecture", in: context), GGUFFile.tensorShapes(in: context))
        }
        if let reason = mismatch(
            adapterArchitecture: metadata["general.architecture"]?.stringValue,
            adapterTensors: adapterTensors,
            modelArchitecture: modelArchitecture,
            modelTensors: modelTensors
        ) {
            throw LlamaError.adapterMismatch(path: adapterPath, reason: reason)
        }
    }

    /// Why a file with `metadata` is not a LoRA adapter, or `nil` if it is.
    package static func adapterProblem(metadata: [String: GGUFFile.Value]) -> String? {
        guard metadata["general.type"]?.stringValue == "adapter" else {
            return "general.type is \(metadata["general.type"]?.description ?? "missing"), not \"adapter\" (a model file?)"
        }
        guard metadata["adapter.type"]?.stringValue == "lora" else {
            return "adapter.type is \(metadata["adapter.type"]?.description ?? "missing"), not \"lora\""
        }
        return nil
    }

    /// llama.cpp reads `adapter.lora.alpha` as a 32-bit float and stops the
    /// process on any other type: checked before it reads the file.
    static func alphaProblem(in context: OpaquePointer) -> String? {
        let key = gguf_find_key(context, "adapter.lora.alpha")
        guard key >= 0 else { return nil }
        return gguf_get_kv_type(context, key) == GGUF_TYPE_FLOAT32 ? nil : "adapter.lora.alpha is not a 32-bit float"
    }

    /// Why an adapter with these tensors cannot be applied to a model with
    /// those, or `nil` if it can. Shapes are GGUF's (`ne`, row length first):
    /// for a weight of shape [in, out], `lora_a` is [in, rank] and `lora_b`
    /// [rank, out] (token embeddings are stored the other way round).
    package static func mismatch(
        adapterArchitecture: String?,
        adapterTensors: [String: [Int64]],
        modelArchitecture: String?,
        modelTensors: [String: [Int64]]
    ) -> String? {
        guard let adapterArchitecture, adapterArchitecture == modelArchitecture else {
            return "it was made for the \(adapterArchitecture ?? "unknown") architecture, the model is \(modelArchitecture ?? "unknown")"
        }
        var pairs: [String: (a: [Int64]?, b: [Int64]?)] = [:]
        for (name, shape) in adapterTensors {
            if name.hasSuffix(".lora_a") {
                pairs[String(name.dropLast(7)), default: (nil, nil)].a = shape
            } else if name.hasSuffix(".lora_b") {
                pairs[String(name.dropLast(7)), default: (nil, nil)].b = shape
            } else if !name.hasSuffix("_norm.weight") {
                return "tensor \(name) is neither a LoRA A nor a B matrix"
            }
        }
        guard !pairs.isEmpty else { return "it holds no LoRA tensors" }
        for (name, pair) in pairs.sorted(by: { $0.key < $1.key }) {
            guard let a = pair.a, let b = pair.b, a.count >= 2, b.count >= 2 else {
                return "tensor \(name) has only one of its two LoRA matrices"
            }
            guard let weight = modelTensors[name], weight.count >= 2 else {
                return "the model has no tensor \(name)"
            }
            let fits =
                name.hasPrefix("token_embd")
                ? weight[0] == b[1] && weight[1] == a[1]
                : weight[0] == a[0] && weight[1] == b[1] && a[1] == b[0]
            guard fits else {
                return "tensor \(name) is \(weight) in the model, its LoRA matrices are \(a) and \(b)"
            }
        }
        return nil
    }
}
