import Foundation
import Testing

@testable import FoundationModels

extension ContentTests {
    @Suite("Malformed JSON")
    struct MalformedJSON {
        static func syntaxError(_ json: String) -> JSONSyntaxError? {
            do {
                _ = try GeneratedContent(json: json)
                return nil
            } catch DecodingError.dataCorrupted(let context) {
                let error = context.underlyingError as? JSONSyntaxError
                if let error {
                    // Inside a value, the description starts with its path (`[0]: …`).
                    #expect(context.debugDescription.hasSuffix("Malformed JSON at byte \(error.offset): \(error.message)"))
                }
                return error
            } catch {
                Issue.record("unexpected error \(error)")
                return nil
            }
        }

        @Test(
            "throws with the byte offset of the problem",
            arguments: [
                (#"{"a" 1}"#, 5), (#"[1,]"#, 3), (#"{"a":1,}"#, 7), ("01", 1), ("-a", 1), ("tx", 1),
                (#""a\qb""#, 2), ("[1 2]", 3), (#"{"a":1}}"#, 7), ("{1:2}", 1), ("1.x", 2), ("1e+x", 3),
                ("[\"a\u{01}\"]", 3), (#""\u12G4""#, 5), ("@", 0), ("[1]x", 3), (#"{"é":1 x"#, 8), ("nulx", 3),
            ])
        func offsets(json: String, offset: Int) throws {
            let error = try #require(Self.syntaxError(json))
            #expect(error.offset == offset, "\(json): \(error.message)")
        }

        @Test("the message says what was wrong")
        func messages() throws {
            #expect(Self.syntaxError(#"{"a" 1}"#)?.message == #"expected ':' after the key "a" but found '1'"#)
            #expect(Self.syntaxError("01")?.message == "a number cannot have leading zeros")
            #expect(Self.syntaxError("[1,]")?.message == "expected a value after ',' but found ']'")
        }

        @Test("very deep nesting throws instead of overflowing the stack")
        func deepNesting() throws {
            let error = try #require(Self.syntaxError(String(repeating: "[", count: 100_000)))
            #expect(error.message.contains("nesting deeper than"))
            #expect(try GeneratedContent(json: String(repeating: "[", count: 500)).isComplete == false)
        }
    }
}
