import Foundation
import FoundationModels

/// The conversation of `fm chat`: a session on the model, its transcript
/// saved to a JSON file after every change and resumed from it, and the two
/// ways out of a context that has filled up — starting over with the same
/// instructions, or letting the oldest turns go.
///
/// Used from the chat's one task only.
final class Conversation {
    let model: SystemLanguageModel
    /// The tools every session of the conversation offers (`--tool`).
    let tools: [any Tool]
    let file: URL?
    private(set) var session: LanguageModelSession

    /// Resumes from `file` when it exists, else starts with `instructions`.
    /// Returns whether it resumed.
    init(model: SystemLanguageModel, tools: [any Tool] = [], instructions: String?, file: URL?) throws {
        self.model = model
        self.tools = tools
        self.file = file
        if let file, FileManager.default.fileExists(atPath: file.path) {
            let transcript: Transcript
            do {
                transcript = try JSONDecoder().decode(Transcript.self, from: Data(contentsOf: file))
            } catch {
                throw ConversationError.unreadable(file.path, error)
            }
            session = LanguageModelSession(model: model, tools: tools, transcript: transcript)
        } else {
            session = LanguageModelSession(model: model, tools: tools, instructions: instructions)
        }
    }

    /// The transcript's turns: each starts with a prompt.
    var turnCount: Int { promptIndices(session.transcript).count }

    /// A fresh session with the same instructions (the entries before the
    /// first prompt).
    func startOver() throws {
        let transcript = session.transcript
        let first = promptIndices(transcript).first ?? transcript.endIndex
        session = LanguageModelSession(model: model, tools: tools, transcript: Transcript(entries: transcript[..<first]))
        try save()
    }

    /// The transcript without its oldest turn (its prompt and everything up
    /// to the next prompt); `false` when there is no turn to drop.
    func dropOldestTurn() throws -> Bool {
        var transcript = session.transcript
        let prompts = promptIndices(transcript)
        guard let first = prompts.first else { return false }
        transcript.removeSubrange(first..<(prompts.dropFirst().first ?? transcript.endIndex))
        session = LanguageModelSession(model: model, tools: tools, transcript: transcript)
        try save()
        return true
    }

    /// Writes the transcript (Apple's JSON shape) to the file, atomically.
    func save() throws {
        guard let file else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        do {
            try encoder.encode(session.transcript).write(to: file, options: .atomic)
        } catch {
            throw ConversationError.unwritable(file.path, error)
        }
    }

    private func promptIndices(_ transcript: Transcript) -> [Int] {
        transcript.indices.filter { if case .prompt = transcript[$0] { true } else { false } }
    }
}

enum ConversationError: LocalizedError {
    case unreadable(String, any Error)
    case unwritable(String, any Error)

    var errorDescription: String? {
        switch self {
        case .unreadable(let path, let error): "\(path) is not a transcript fm chat can resume: \(error)"
        case .unwritable(let path, let error): "cannot save the conversation to \(path): \(error.localizedDescription)"
        }
    }
}
