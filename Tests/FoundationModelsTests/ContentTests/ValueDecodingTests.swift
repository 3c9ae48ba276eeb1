import Foundation
import Testing

@testable import FoundationModels

/// Hand-written conversions shaped like the ones `@Generable` generates.
private struct Card: ConvertibleFromGeneratedContent, Equatable {
    var question: String
    var answer: String
    var hint: String?

    init(question: String, answer: String, hint: String? = nil) {
        self.question = question
        self.answer = answer
        self.hint = hint
    }

    init(_ content: GeneratedContent) throws {
        question = try content.value(forProperty: "question")
        answer = try content.value(forProperty: "answer")
        hint = try content.value(forProperty: "hint")
    }
}

private struct CardSet: ConvertibleFromGeneratedContent {
    var cards: [Card]
    var scores: [[Int]]?

    init(_ content: GeneratedContent) throws {
        cards = try content.value(forProperty: "cards")
        scores = try content.value(forProperty: "scores")
    }
}

/// A streaming snapshot type: every property optional.
private struct PartialCard: ConvertibleFromGeneratedContent {
    var question: String?
    var points: Int?

    init(_ content: GeneratedContent) throws {
        question = try content.value(forProperty: "question")
        points = try content.value(forProperty: "points")
    }
}

extension ContentTests {
    @Suite("Decoding values")
    struct ValueDecoding {
        static func decodingError(_ body: () throws -> Void) -> DecodingError? {
            do {
                try body()
                Issue.record("expected a DecodingError")
                return nil
            } catch let error as DecodingError {
                return error
            } catch {
                Issue.record("unexpected error \(error)")
                return nil
            }
        }

        static func describe(_ error: DecodingError?) -> (path: String, message: String)? {
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                return (ContentDecoding.render(context.codingPath), context.debugDescription)
            case .keyNotFound(let key, let context):
                return (ContentDecoding.render(context.codingPath + [key]), context.debugDescription)
            default:
                return nil
            }
        }

        @Test("decodes nested structures and arrays")
        func nested() throws {
            let json = #"{"cards":[{"question":"Q1","answer":"A1"},{"question":"Q2","answer":"A2","hint":"H"}],"scores":[[1,2],[3]]}"#
            let set = try CardSet(GeneratedContent(json: json))
            #expect(set.cards == [Card(question: "Q1", answer: "A1"), Card(question: "Q2", answer: "A2", hint: "H")])
            #expect(set.scores == [[1, 2], [3]])
        }

        @Test("a wrong kind deep inside names the full path")
        func wrongKindPath() throws {
            let json = #"{"cards":[{"question":"a","answer":"b"},{"question":"c","answer":"d"},{"question":5,"answer":"e"}]}"#
            let error = Self.decodingError { _ = try CardSet(GeneratedContent(json: json)) }
            guard case .typeMismatch(let type, let context) = error else {
                Issue.record("expected typeMismatch, got \(String(describing: error))")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
            #expect(context.debugDescription == "cards[2].question: expected a string, found a number")
            #expect(context.codingPath.map(\.stringValue) == ["cards", "Index 2", "question"])
            #expect(context.codingPath.map(\.intValue) == [nil, 2, nil])
        }

        @Test(
            "errors name the path for every kind of failure",
            arguments: [
                (#"{"cards":[{"question":"a"}]}"#, "cards[0].answer", "cards[0].answer: required property is missing"),
                (#"{}"#, "cards", "cards: required property is missing"),
                (#"{"cards":"none"}"#, "cards", "cards: expected an array, found a string"),
                (#"{"cards":[null]}"#, "cards[0]", #"cards[0]: expected a structure with the property "question", found null"#),
                (#"{"cards":[{"question":"a","answer":null}]}"#, "cards[0].answer", "cards[0].answer: expected a string, found null"),
                (#"{"cards":[],"scores":[[1],[2,2.5]]}"#, "scores[1][1]", "scores[1][1]: expected an integer, found the number 2.5"),
                (#"{"cards":[],"scores":[[1e30]]}"#, "scores[0][0]", "scores[0][0]: expected an integer within Int's range, found 1e30"),
                (#"{"cards":[{"question":"a","answer":"b","hint":true}]}"#, "cards[0].hint", "cards[0].hint: expected a string, found a boolean"),
                (#"[1]"#, "", #"expected a structure with the property "cards", found an array"#),
            ])
        func paths(json: String, path: String, message: String) throws {
            let error = Self.decodingError { _ = try CardSet(GeneratedContent(json: json)) }
            let described = try #require(Self.describe(error))
            #expect(described.path == path)
            #expect(described.message == message)
        }

        @Test("malformed JSON throws a decoding error rather than crashing")
        func malformed() {
            let error = Self.decodingError { _ = try CardSet(GeneratedContent(json: #"{"cards":[}"#)) }
            guard case .dataCorrupted(let context) = error else {
                Issue.record("expected dataCorrupted")
                return
            }
            // The path of the value where parsing stopped comes first.
            #expect(context.debugDescription.hasPrefix("cards[0]: Malformed JSON at byte 10:"))
        }

        @Test("integers decode only from integral numbers in range")
        func integers() throws {
            #expect(try Int(GeneratedContent(json: "3")) == 3)
            #expect(try Int(GeneratedContent(json: "3.0")) == 3)
            #expect(try Int(GeneratedContent(json: "-4e2")) == -400)
            #expect(try Int(GeneratedContent(json: "9007199254740993")) == 9_007_199_254_740_993)
            #expect(throws: DecodingError.self) { try Int(GeneratedContent(json: "3.5")) }
            #expect(throws: DecodingError.self) { try Int(GeneratedContent(json: "1e19")) }
            #expect(throws: DecodingError.self) { try Int(GeneratedContent(json: "\"3\"")) }
        }

        @Test("other primitives decode from their kinds")
        func primitives() throws {
            #expect(try Bool(GeneratedContent(json: "true")) == true)
            #expect(try Double(GeneratedContent(json: "-2.5e-3")) == -0.0025)
            #expect(try Float(GeneratedContent(json: "0.1")) == Float(0.1))
            #expect(try Decimal(GeneratedContent(json: "0.1")) == Decimal(string: "0.1"))
            #expect(try Decimal(GeneratedContent(json: "123456789.123456789")) == Decimal(string: "123456789.123456789"))
            #expect(try String(GeneratedContent(json: "\"x\"")) == "x")
            #expect(throws: DecodingError.self) { try Bool(GeneratedContent(json: "1")) }
            #expect(throws: DecodingError.self) { try Double(GeneratedContent(json: "null")) }
            #expect(throws: DecodingError.self) { try GeneratedContent(json: "1").value(Never.self) }
        }

        @Test("values convert to content and back unchanged")
        func roundTrip() throws {
            #expect(try [Int](([1, -2, 3] as [Int]).generatedContent) == [1, -2, 3])
            #expect(try [[String]]([["a"], [], ["b", "c"]].generatedContent) == [["a"], [], ["b", "c"]])
            let decimal = try #require(Decimal(string: "3.14159265358979323846"))
            #expect(try Decimal(decimal.generatedContent) == decimal)
            #expect(try Int(Int.min.generatedContent) == Int.min)
            #expect(try Float(Float(1.1).generatedContent) == Float(1.1))
            #expect(Optional<Int>.none.generatedContent.kind == .null)
            #expect(Optional(4).generatedContent.kind == .number(4))
        }

        @Test("the optional overload: nil when missing or null, throws on complete wrong kinds")
        func optionalOverload() throws {
            let content = try GeneratedContent(json: #"{"a":null,"b":"x","c":1}"#)
            #expect(try content.value(String?.self, forProperty: "a") == nil)
            #expect(try content.value(String?.self, forProperty: "missing") == nil)
            #expect(try content.value(String?.self, forProperty: "b") == "x")
            #expect(throws: DecodingError.self) { try content.value(String?.self, forProperty: "c") }
        }

        @Test("partial snapshots: incomplete properties decode when they can, else nil")
        func partialSnapshots() throws {
            let early = try PartialCard(GeneratedContent(json: #"{"question":"Wha"#))
            #expect(early.question == "Wha")
            #expect(early.points == nil)
            let numberSoFar = try PartialCard(GeneratedContent(json: #"{"question":"What","points":1"#))
            #expect(numberSoFar.points == 1)
            let wrongKindStillStreaming = try PartialCard(GeneratedContent(json: #"{"question":"What","points":"#))
            #expect(wrongKindStillStreaming.points == nil)
            let incompleteWrongKind = try PartialCard(GeneratedContent(json: #"{"points":"1"#))
            #expect(incompleteWrongKind.points == nil)
            let cards = try [PartialCard](GeneratedContent(json: #"[{"question":"A"},{"quest"#))
            #expect(cards.map(\.question) == ["A", nil])
        }

        @Test("a streaming array leaves out a last element that cannot decode yet")
        func partialArrays() throws {
            #expect(try [Int](GeneratedContent(json: "[1,2")) == [1, 2])
            #expect(try [Card](GeneratedContent(json: #"[{"question":"a","answer":"b"},{"question":"c"#)) == [Card(question: "a", answer: "b")])
            #expect(throws: DecodingError.self) { try [Card](GeneratedContent(json: #"[{"question":"a"}]"#)) }
        }
    }
}
