import Foundation
import Testing

@testable import FoundationModels

extension TranscriptTests {
    @Suite struct Coding {
        @Test func roundTripKeepsEveryEntryKind() throws {
            let transcript = try everyKindTranscript()
            let data = try JSONEncoder().encode(transcript)
            let decoded = try JSONDecoder().decode(Transcript.self, from: data)
            #expect(decoded == transcript)
            // And the second trip writes the same bytes.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            #expect(try encoder.encode(decoded) == encoder.encode(transcript))
        }

        @Test func envelopeHasApplesShape() throws {
            let object = try jsonObject(try everyKindTranscript())
            #expect(object["version"] as? Int == 1)
            #expect(object["type"] as? String == "FoundationModels.Transcript")
            let entries = try #require((object["transcript"] as? [String: Any])?["entries"] as? [[String: Any]])
            #expect(entries.map { $0["role"] as? String } == ["instructions", "user", "response", "tool", "reasoning", "response"])
            #expect(entries.allSatisfy { $0["id"] is String && $0["contents"] is [Any] })
        }

        @Test func entryFieldsHaveApplesNames() throws {
            let object = try jsonObject(try everyKindTranscript())
            let entries = try #require((object["transcript"] as? [String: Any])?["entries"] as? [[String: Any]])

            let tools = try #require(entries[0]["tools"] as? [[String: Any]])
            let function = try #require(tools.first?["function"] as? [String: Any])
            #expect(tools.first?["type"] as? String == "function")
            #expect(function["name"] as? String == "getWeather")
            #expect((function["parameters"] as? [String: Any])?["type"] as? String == "object")

            let contents = try #require(entries[1]["contents"] as? [[String: Any]])
            #expect(contents.map { $0["type"] as? String } == ["text", "structure", "image"])
            #expect(contents[0]["text"] as? String == "Weather in Paris and this city?")
            #expect(contents[2]["image"] as? String == "file:///tmp/sky.png")
            let options = try #require(entries[1]["options"] as? [String: Any])
            #expect(options["temperature"] as? Double == 0.5)
            #expect(options["maximumResponseTokens"] as? Int == 200)
            #expect(options["toolCallingMode"] as? String == "required")
            let format = try #require(entries[1]["responseFormat"] as? [String: Any])
            #expect(format["type"] as? String == "jsonSchema")
            #expect((format["jsonSchema"] as? [String: Any])?["name"] as? String == "PromptCity")

            let calls = try #require(entries[2]["toolCalls"] as? [[String: Any]])
            #expect(calls.map { $0["name"] as? String } == ["getWeather", "getWeather"])
            #expect(calls[0]["arguments"] as? String == #"{"city":"Paris","days":2}"#)

            #expect(entries[3]["toolName"] as? String == "getWeather")
            #expect(entries[3]["toolCallID"] as? String == "call-1")
            #expect(entries[4]["signature"] as? String == Data([1, 2, 3, 250]).base64EncodedString())
            #expect(entries[5]["assets"] as? [String] == ["base-model"])
        }

        @Test func schemasSurviveTheRoundTrip() throws {
            let transcript = try everyKindTranscript()
            let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(transcript))
            guard case .instructions(let instructions) = decoded[0], case .prompt(let prompt) = decoded[1] else {
                Issue.record("unexpected entry kinds")
                return
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            #expect(try encoder.encode(instructions.toolDefinitions[0].parameters) == encoder.encode(WeatherTool().parameters))
            let format = try #require(prompt.responseFormat)
            #expect(format.name == "PromptCity")
            #expect(try encoder.encode(format.schema) == encoder.encode(PromptCity.generationSchema))
            #expect(prompt.options.samplingMode == .random(top: 40, seed: 7))
        }

        @Test func readsApplesNewerFormat() throws {
            let json = #"""
                {"type":"FoundationModels.Transcript","version":"1.1","transcript":{"entries":[
                  {"id":"i","role":"instructions","contents":[{"id":"t1","type":"text","text":"Be terse."}],"tools":[]},
                  {"id":"p","role":"user","contents":[{"id":"t2","type":"text","text":"Hi"}],"options":{},"contextOptions":{}},
                  {"id":"c","role":"response","contents":[],"toolCalls":[{"id":"k","name":"lookup","arguments":"{\"q\":\"x\"}"}]},
                  {"id":"o","role":"tool","toolName":"lookup","toolCallID":"k","contents":[{"id":"t3","type":"text","text":"found"}]},
                  {"id":"r","role":"response","assets":["a"],"contents":[{"id":"t4","type":"text","text":"Hello."}]}
                ]}}
                """#
            let transcript = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
            #expect(transcript.count == 5)
            guard case .toolCalls(let calls) = transcript[2], case .toolOutput(let output) = transcript[3],
                case .response(let response) = transcript[4]
            else {
                Issue.record("unexpected entry kinds: \(transcript)")
                return
            }
            #expect(calls.id == "c")
            #expect(calls[0].toolName == "lookup")
            #expect(try calls[0].arguments.value(String.self, forProperty: "q") == "x")
            #expect(output.id == "k")
            #expect(output.toolName == "lookup")
            #expect(response.assetIDs == ["a"])
            #expect(transcript[4].text == "Hello.")
        }

        @Test func inlineJSONIsAcceptedWhereJSONTextIsWritten() throws {
            let json = entries(
                #"{"id":"c","role":"response","contents":[],"toolCalls":[{"id":"k","name":"t","arguments":{"city":"Oslo","days":3}}]}"#)
            let transcript = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
            guard case .toolCalls(let calls) = transcript[0] else {
                Issue.record("expected tool calls")
                return
            }
            #expect(try calls[0].arguments.value(String.self, forProperty: "city") == "Oslo")
            #expect(try calls[0].arguments.value(Int.self, forProperty: "days") == 3)
        }

        @Test func emptyTranscriptRoundTrips() throws {
            let data = try JSONEncoder().encode(Transcript())
            #expect(try JSONDecoder().decode(Transcript.self, from: data).isEmpty)
        }

        // MARK: Bad input: each a DecodingError naming where it went wrong.

        private func decodingError(_ json: String) -> (any Error)? {
            do {
                _ = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
                return nil
            } catch {
                return error
            }
        }

        private func entries(_ body: String) -> String {
            #"{"version":1,"type":"FoundationModels.Transcript","transcript":{"entries":[\#(body)]}}"#
        }

        @Test func malformedJSONThrows() {
            let error = decodingError(#"{"version":1,"type":"#)
            #expect(error is DecodingError)
        }

        @Test func unknownRoleNamesItsPath() throws {
            let error = try #require(decodingError(entries(#"{"id":"x","role":"alien","contents":[]}"#)))
            #expect(codingPathDescription(error) == "transcript.entries.0.role")
            #expect("\(error)".contains("alien"))
        }

        @Test func missingIDNamesItsPath() throws {
            let error = try #require(decodingError(entries(#"{"id":"a","role":"user","contents":[]},{"role":"response","contents":[]}"#)))
            #expect(codingPathDescription(error) == "transcript.entries.1.id")
        }

        @Test func wrongKindNamesItsPath() throws {
            let error = try #require(decodingError(#"{"version":1,"type":"FoundationModels.Transcript","transcript":{"entries":"nope"}}"#))
            guard case .typeMismatch = error as? DecodingError else {
                Issue.record("expected a type mismatch, got \(error)")
                return
            }
            #expect(codingPathDescription(error) == "transcript.entries")
        }

        @Test func badToolArgumentsNameTheirPath() throws {
            let error = try #require(
                decodingError(entries(#"{"id":"c","role":"response","contents":[],"toolCalls":[{"id":"k","name":"t","arguments":"not-json"}]}"#)))
            #expect(codingPathDescription(error) == "transcript.entries.0.toolCalls.0.arguments")
        }

        @Test func badSegmentNamesItsPath() throws {
            let error = try #require(
                decodingError(entries(#"{"id":"p","role":"user","contents":[{"id":"s","type":"text","text":"ok"},{"id":"s2","type":"video"}]}"#)))
            #expect(codingPathDescription(error) == "transcript.entries.0.contents.1.type")
            let missingText = try #require(decodingError(entries(#"{"id":"p","role":"user","contents":[{"id":"s","type":"text"}]}"#)))
            #expect(codingPathDescription(missingText) == "transcript.entries.0.contents.0.text")
        }

        @Test func badSchemaNamesItsPath() throws {
            let error = try #require(
                decodingError(
                    entries(
                        #"{"id":"p","role":"user","contents":[],"responseFormat":{"type":"jsonSchema","jsonSchema":{"name":"X","schema":{"type":"future"}}}}"#
                    )))
            #expect(codingPathDescription(error).hasPrefix("transcript.entries.0.responseFormat.jsonSchema.schema"))
        }

        @Test func wrongEnvelopeIsRejected() throws {
            let wrongType = try #require(decodingError(#"{"version":1,"type":"Something.Else","transcript":{"entries":[]}}"#))
            #expect(codingPathDescription(wrongType) == "type")
            let wrongVersion = try #require(decodingError(#"{"version":99,"type":"FoundationModels.Transcript","transcript":{"entries":[]}}"#))
            #expect(codingPathDescription(wrongVersion) == "version")
            let missingBody = try #require(decodingError(#"{"version":1,"type":"FoundationModels.Transcript"}"#))
            #expect(codingPathDescription(missingBody) == "transcript")
            for json in ["", "null", "[]", "{}"] {
                #expect(decodingError(json) is DecodingError, "\(json)")
            }
        }
    }
}
