import CLlama

/// Loaded model weights: owns one `llama_model`, freed when the last
/// reference goes away.
///
/// Sendable: `@unchecked` is sound because
/// - the only stored state is immutable (`let`s set in `init`),
/// - after `llama_model_load_from_file` returns, llama.cpp never mutates a
///   `llama_model` through the calls LlamaKit makes (metadata, vocabulary,
///   tokenization — documented thread-safe in llama.h — and context creation;
///   llama.cpp's own server shares one model among contexts on many threads),
/// - `llama_model_free` runs only in `deinit`, i.e. when no thread holds a
///   reference any more; every `LlamaBatchContext` and `LlamaVocabulary` keeps a
///   strong reference to its model, so the weights outlive them.
package final class LlamaModel: @unchecked Sendable {
    package struct Options: Sendable {
        /// Memory-map the weights (fast load, shared pages) instead of reading them.
        package var useMemoryMap: Bool = true
        /// Load only the vocabulary and metadata, no weights (no context can be made).
        package var vocabularyOnly: Bool = false
        /// Layers offloaded to a GPU; nil: every layer when llama.cpp has a
        /// GPU backend (``LlamaBackend/supportsGPUOffload``), none otherwise.
        package var gpuLayers: Int?
        /// The GPU that holds the model (an index into the GPUs of
        /// ``LlamaBackend/devices``); nil: llama.cpp's choice, which splits
        /// the layers across every GPU it finds.
        package var mainGPU: Int?

        package init(useMemoryMap: Bool = true, vocabularyOnly: Bool = false, gpuLayers: Int? = nil, mainGPU: Int? = nil) {
            self.useMemoryMap = useMemoryMap
            self.vocabularyOnly = vocabularyOnly
            self.gpuLayers = gpuLayers
            self.mainGPU = mainGPU
        }

        /// The layers this asks llama.cpp to offload: ``gpuLayers``, or
        /// every layer when a GPU backend is built in.
        package var requestedGPULayers: Int {
            gpuLayers ?? (LlamaBackend.supportsGPUOffload ? Int(Int32.max) : 0)
        }
    }

    let pointer: OpaquePointer
    let vocabularyPointer: OpaquePointer
    /// The file the model was loaded from.
    package let path: String
    package let options: Options
    /// `general.languages` from the file (e.g. ["en"]); empty when it lists none.
    package let languages: [String]

    /// The tokenizer (a cheap view that keeps this model alive).
    package var vocabulary: LlamaVocabulary { LlamaVocabulary(model: self) }

    /// Loads the GGUF model at `path`. The file is checked first (exists,
    /// GGUF magic and version, plausible header), so a wrong path or a
    /// non-model file throws instead of reaching llama.cpp.
    /// - Throws: `LlamaError.fileNotFound`, `.notAGGUFFile`, `.modelLoadFailed`.
    package init(path: String, options: Options = Options()) throws {
        _ = try GGUFFile.validate(path: path)
        try LlamaBackend.checkCompatible()
        var params = llama_model_default_params()
        params.n_gpu_layers = Int32(clamping: options.requestedGPULayers)
        if let mainGPU = options.mainGPU {
            let gpus = LlamaBackend.devices.filter(\.isGPU).count
            guard mainGPU >= 0, mainGPU < max(gpus, 1) else {
                throw LlamaError.invalidArgument("main GPU \(mainGPU): this llama.cpp build found \(gpus) GPU\(gpus == 1 ? "" : "s")")
            }
            // One GPU holds every offloaded layer (llama.cpp's main_gpu
            // applies only without splitting).
            params.split_mode = LLAMA_SPLIT_MODE_NONE
            params.main_gpu = Int32(mainGPU)
        }
        params.load_mode = options.useMemoryMap ? LLAMA_LOAD_MODE_MMAP : LLAMA_LOAD_MODE_NONE
        params.vocab_only = options.vocabularyOnly
        guard let model = llama_model_load_from_file(path, params) else {
            throw LlamaError.modelLoadFailed(path: path)
        }
        guard let vocab = llama_model_get_vocab(model) else {
            llama_model_free(model)
            throw LlamaError.modelLoadFailed(path: path)
        }
        self.pointer = model
        self.path = path
        self.options = options
        self.vocabularyPointer = vocab
        // llama.cpp keeps no array metadata, so read this one from the file.
        self.languages = (try? GGUFFile.languages(path: path)) ?? []
    }

    deinit {
        llama_model_free(pointer)
    }

    // MARK: Metadata

    /// A scalar metadata value as text (llama.cpp keeps no arrays here: use
    /// `GGUFFile.metadata(path:)` for those).
    package func metadata(_ key: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        var length = llama_model_meta_val_str(pointer, key, &buffer, buffer.count)
        if length < 0 { return nil }
        if Int(length) >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(length) + 1)
            length = llama_model_meta_val_str(pointer, key, &buffer, buffer.count)
            if length < 0 { return nil }
        }
        return string(from: buffer, length: Int(length))
    }

    /// Every scalar metadata entry, by key.
    package var allMetadata: [String: String] {
        var result: [String: String] = [:]
        for index in 0..<llama_model_meta_count(pointer) {
            guard let key = indexed(index, llama_model_meta_key_by_index),
                let value = indexed(index, llama_model_meta_val_str_by_index)
            else { continue }
            result[key] = value
        }
        return result
    }

    /// `general.name`, when the file has one.
    package var name: String? { metadata("general.name") }

    /// llama.cpp's one-line description (architecture, size, quantization).
    package var modelDescription: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = llama_model_desc(pointer, &buffer, buffer.count)
        return string(from: buffer, length: max(0, min(Int(length), buffer.count - 1)))
    }

    /// Layers on a GPU: those asked for, at most ``layerCount`` + 1 (the
    /// output layer counts as one); 0 when the model runs on the CPU.
    /// llama.cpp places every layer asked for or fails to load the model.
    package var offloadedLayers: Int {
        guard LlamaBackend.supportsGPUOffload, !options.vocabularyOnly else { return 0 }
        return min(options.requestedGPULayers, layerCount + 1)
    }

    /// The context length the model was trained with.
    package var trainingContextLength: Int { Int(llama_model_n_ctx_train(pointer)) }
    package var parameterCount: UInt64 { llama_model_n_params(pointer) }
    package var sizeInBytes: UInt64 { llama_model_size(pointer) }
    package var layerCount: Int { Int(llama_model_n_layer(pointer)) }
    package var embeddingLength: Int { Int(llama_model_n_embd(pointer)) }

    /// The model's default chat template (Jinja source from `tokenizer.chat_template`).
    package var chatTemplate: String? {
        guard let template = llama_model_chat_template(pointer, nil) else { return nil }
        return String(cString: template)
    }

    /// Renders `messages` with the model's own chat template.
    /// - Parameter addAssistantPrefix: end with the tokens that open the assistant's turn.
    package func applyChatTemplate(_ messages: [LlamaChatMessage], addAssistantPrefix: Bool = true) throws -> String {
        guard let template = chatTemplate else {
            throw LlamaError.chatTemplateUnavailable("the model has no tokenizer.chat_template")
        }
        return try LlamaChatTemplate.apply(template: template, messages: messages, addAssistantPrefix: addAssistantPrefix)
    }

    private func indexed(_ index: Int32, _ get: (OpaquePointer?, Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        var length = get(pointer, index, &buffer, buffer.count)
        if length < 0 { return nil }
        if Int(length) >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(length) + 1)
            length = get(pointer, index, &buffer, buffer.count)
            if length < 0 { return nil }
        }
        return string(from: buffer, length: Int(length))
    }
}

/// Decodes `length` bytes of a C buffer as UTF-8, repairing invalid sequences.
func string(from buffer: [CChar], length: Int) -> String {
    let bytes = buffer.prefix(length).map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
