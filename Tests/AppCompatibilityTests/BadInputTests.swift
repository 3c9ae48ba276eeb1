// Model output or stored JSON that doesn't fit the app's types: every failure
// is a thrown DecodingError that names where it happened; nothing crashes.

import Foundation
import FoundationModels
import Testing

@Suite("Bad input")
struct BadInputTests {
    /// Parses `json` and decodes it as `T`, returning the `DecodingError`.
    static func decodingError<T: ConvertibleFromGeneratedContent>(
        _ target: T.Type,
        _ json: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> DecodingError? {
        do {
            _ = try T(GeneratedContent(json: json))
            Issue.record("\(T.self) decoded from \(json)", sourceLocation: sourceLocation)
            return nil
        } catch let error as DecodingError {
            return error
        } catch {
            Issue.record("expected a DecodingError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Checks that decoding fails with an error whose description and coding
    /// path both name `path`.
    static func expectFailure<T: ConvertibleFromGeneratedContent>(
        _ target: T.Type,
        _ json: String,
        path: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = decodingError(target, json, sourceLocation: sourceLocation) else { return }
        let description = decodingErrorDescription(error)
        #expect(description.contains(path), "\(description)", sourceLocation: sourceLocation)
        #expect(renderedCodingPath(error) == path, "\(error)", sourceLocation: sourceLocation)
        #expect(!error.localizedDescription.isEmpty, sourceLocation: sourceLocation)
    }

    // MARK: Malformed JSON

    @Test(
        "malformed JSON throws a DecodingError with the byte offset",
        arguments: [
            #"{"question": "What is a B-side?" "answer": "The flip side"}"#,
            #"{"question": "Q", "answer": }"#,
            #"{"cards": [{"question": "Q",, "answer": "A"}]}"#,
            #"{question: "Q"}"#,
            "{\"summary\": \"bad escape \\x\"}",
            #"[1, 2]]"#,
        ])
    func malformed(json: String) throws {
        do {
            let content = try GeneratedContent(json: json)
            Issue.record("parsed malformed JSON as \(content.jsonString)")
        } catch let error as DecodingError {
            guard case .dataCorrupted(let context) = error else {
                Issue.record("expected dataCorrupted, got \(error)")
                return
            }
            #expect(context.debugDescription.contains("byte"), "\(context.debugDescription)")
        }
    }

    @Test("malformed JSON inside a value names the property path where it broke")
    func malformedPath() throws {
        let cases: [(json: String, path: String)] = [
            (#"{"question": "Q", "answer": tru}"#, "answer"),
            (#"{"cards": [{"question": "Q1", "answer": "A1"}, {"question": "Q2", "answer": nope}]}"#, "cards[1].answer"),
            (#"{"title": "t", "moodTags": ["calm", "wa\qrm"], "narrative": "n"}"#, "moodTags[1]"),
            (#"{"overview": "o", "recommendations": [{"title": "t", "priority": 1.2.3}]}"#, "recommendations[0]"),
        ]
        for (json, path) in cases {
            do {
                _ = try GeneratedContent(json: json)
                Issue.record("parsed malformed JSON \(json)")
            } catch let error as DecodingError {
                #expect(decodingErrorDescription(error).contains(path), "\(error)")
                #expect(renderedCodingPath(error) == path, "\(error)")
            }
        }
    }

    @Test("incomplete JSON is not an error to parse, but an incomplete value is not a complete one")
    func truncated() throws {
        let content = try GeneratedContent(json: #"{"question": "What is a B-side?", "ans"#)
        #expect(!content.isComplete)
        let error = try #require(Self.decodingError(DraftCard.self, #"{"question": "What is a B-side?", "ans"#))
        #expect(renderedCodingPath(error) == "answer")
        // The partially generated form is exactly what streaming shows.
        let partial = try DraftCard.PartiallyGenerated(content)
        #expect(partial.question == "What is a B-side?")
        #expect(partial.answer == nil)
    }

    // MARK: Wrong kinds

    @Test("a string where an Int is expected names the property")
    func wrongKinds() {
        Self.expectFailure(TicketSummary.self, #"{"headline": "h", "urgency": "high", "tags": ["a", "b"]}"#, path: "urgency")
        Self.expectFailure(
            AlbumRecommendation.self, #"{"releaseId": "123", "connectionType": "era", "basedOn": ["x"], "reason": "r"}"#, path: "releaseId")
        Self.expectFailure(DraftCard.self, #"{"question": 42, "answer": "A"}"#, path: "question")
        Self.expectFailure(CrateAIInsight.self, #"{"title": "t", "moodTags": "calm", "narrative": "n"}"#, path: "moodTags")
        Self.expectFailure(CrateAIInsight.self, #"{"title": "t", "moodTags": ["calm", 3, "warm"], "narrative": "n"}"#, path: "moodTags[1]")
        Self.expectFailure(ParsedFuelReceiptSchema.self, #"{"volume": "42 L"}"#, path: "volume")
        Self.expectFailure(ParsedFuelReceiptSchema.self, #"{"isFullTank": "yes"}"#, path: "isFullTank")
        Self.expectFailure(FindAlbumTool.Arguments.self, #"{"artist": "Miles", "limit": "three"}"#, path: "limit")
    }

    @Test("a fractional or oversized number for an Int is rejected, naming the property")
    func badIntegers() {
        Self.expectFailure(TicketSummary.self, #"{"headline": "h", "urgency": 3.5, "tags": ["a", "b"]}"#, path: "urgency")
        Self.expectFailure(TicketSummary.self, #"{"headline": "h", "urgency": 1e30, "tags": ["a", "b"]}"#, path: "urgency")
    }

    @Test("the wrong kind at the top level is an error, not a crash")
    func wrongTopLevel() throws {
        for json in [#"["summary"]"#, #""just text""#, "42", "null", "true"] {
            let error = try #require(Self.decodingError(AlbumAIInsight.self, json))
            #expect(!decodingErrorDescription(error).isEmpty)
        }
        #expect(Self.decodingError(DraftCardSet.self, #"{"cards": {"question": "Q", "answer": "A"}}"#).map(renderedCodingPath) == "cards")
    }

    // MARK: Missing properties

    @Test("a missing required property is named; missing optionals are fine")
    func missing() throws {
        Self.expectFailure(DraftCard.self, #"{"question": "Q"}"#, path: "answer")
        Self.expectFailure(AlbumAIInsight.self, #"{"summary": "s", "listenNext": "l"}"#, path: "collectorNotes")
        Self.expectFailure(TicketSummary.self, #"{"headline": "h", "tags": []}"#, path: "urgency")
        Self.expectFailure(FindAlbumTool.Arguments.self, #"{"limit": 2}"#, path: "artist")
        #expect(try ParsedFuelReceiptSchema(GeneratedContent(json: "{}")) == Fixtures.emptyReceipt)
        #expect(try FindAlbumTool.Arguments(GeneratedContent(json: #"{"artist": "Joni Mitchell", "limit": 1}"#)) == Fixtures.argumentsWithoutDecade)
    }

    @Test("null for a required property is named")
    func nullRequired() throws {
        Self.expectFailure(DraftCard.self, #"{"question": null, "answer": "A"}"#, path: "question")
        #expect(
            try ParsedFuelReceiptSchema(GeneratedContent(json: #"{"volume": null, "totalCost": 60, "isFullTank": false}"#)) == Fixtures.sparseReceipt)
    }

    // MARK: Nested errors

    @Test("errors deep inside arrays and nested types carry the full path")
    func nested() {
        Self.expectFailure(
            DraftCardSet.self,
            #"{"cards": [{"question": "Q1", "answer": "A1"}, {"question": "Q2"}]}"#,
            path: "cards[1].answer"
        )
        Self.expectFailure(
            DraftCardSet.self,
            #"{"cards": [{"question": "Q1", "answer": "A1"}, {"question": "Q2", "answer": "A2"}, {"question": ["Q3"], "answer": "A3"}]}"#,
            path: "cards[2].question"
        )
        Self.expectFailure(
            AISummary.self,
            #"{"overview": "o", "recommendations": [{"title": "t", "rationale": "r", "priority": "high"}]}"#,
            path: "recommendations[0].priority"
        )
        Self.expectFailure(
            [AlbumRecommendation].self,
            #"[{"releaseId": 1, "connectionType": "era", "basedOn": ["x"], "reason": "r"}, {"releaseId": 2, "connectionType": "era", "basedOn": [7], "reason": "r"}]"#,
            path: "[1].basedOn[0]"
        )
    }

    @Test("a tool call with bad arguments surfaces as a DecodingError naming the argument")
    func toolArguments() throws {
        let call = Transcript.ToolCall(
            toolName: "findAlbum", arguments: try GeneratedContent(json: #"{"artist": "Miles", "decade": "fifties", "limit": 2}"#))
        do {
            _ = try FindAlbumTool.Arguments(call.arguments)
            Issue.record("decoded bad arguments")
        } catch let error as DecodingError {
            #expect(renderedCodingPath(error) == "decade")
        }
    }
}
