// Session code shaped like the snippets apps copy from Apple's documentation.

import Foundation
import FoundationModels

enum SessionRecipes {
    static let clerkInstructions = "You are a record store clerk. Answer briefly."

    static func plainSession() -> LanguageModelSession {
        LanguageModelSession(instructions: clerkInstructions)
    }

    static func builderSession(includeTone: Bool) -> LanguageModelSession {
        LanguageModelSession {
            "You triage support tickets."
            if includeTone {
                "Be kind to the customer."
            } else {
                "Be terse."
            }
        }
    }

    static func toolSession() -> LanguageModelSession {
        LanguageModelSession(
            model: SystemLanguageModel(useCase: .contentTagging, guardrails: .permissiveContentTransformations),
            tools: [FindAlbumTool.sample, PriceLookupTool()],
            instructions: Instructions { "Use the tools to answer questions about the collection." }
        )
    }

    static func resumed(from transcript: Transcript) -> LanguageModelSession {
        LanguageModelSession(transcript: transcript)
    }

    static func albumInsight(session: LanguageModelSession) async throws -> AlbumAIInsight {
        let response = try await session.respond(to: "Tell me about Kind of Blue.", generating: AlbumAIInsight.self)
        return response.content
    }

    static func triage(_ ticket: String, session: LanguageModelSession) async throws -> TicketSummary {
        try await session.respond(
            generating: TicketSummary.self,
            options: GenerationOptions(temperature: 0.3)
        ) {
            "Triage this ticket:"
            ticket
        }.content
    }

    static func weeklySummary(session: LanguageModelSession) async throws -> (AISummary, ArraySlice<Transcript.Entry>) {
        let response = try await session.respond(to: Prompt { "Summarize my week." }, generating: AISummary.self)
        return (response.content, response.transcriptEntries)
    }

    static func collectCards(session: LanguageModelSession) async throws -> DraftCardSet {
        try await session.streamResponse(to: "Make cards about jazz.", generating: DraftCardSet.self).collect().content
    }
}
