extension SystemLanguageModel {
    /// What the on-device model reads for a conversation: the chat messages
    /// (role and text) and the prompt text the model's own chat template
    /// makes of them, ending where the assistant's answer begins.
    package struct RenderedInput: Sendable, Equatable {
        package struct Message: Sendable, Equatable {
            package var role: String
            package var content: String
        }

        package var messages: [Message]
        package var text: String
    }

    #if LlamaCpp
    /// The input a request on `transcript` gives this model, rendered by
    /// ``ChatRendering`` exactly as the on-device executor renders it.
    ///
    /// Exists so measurements can give another runtime on the same weights
    /// (llama.cpp's server, in `fm eval` and `make bench`) the very prompt a
    /// session gives this model, whatever the rendering becomes. Loads the
    /// model if it is not loaded yet.
    package func renderedInput(for transcript: Transcript) async throws -> RenderedInput {
        let rendering = try await OnDeviceEngine.shared(for: configuration).loaded().rendering
        return RenderedInput(
            messages: rendering.messages(for: transcript).map { RenderedInput.Message(role: $0.role, content: $0.content) },
            text: try rendering.prompt(for: transcript)
        )
    }
    #endif
}
