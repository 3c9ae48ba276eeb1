#if DataAttachments
import Foundation
import Testing
import TestSupport
@testable import FoundationModels

/// A value an app records as a data entry (Apple 27.2's DataEntryRepresentable).
struct SearchAttribution: DataEntryRepresentable, Equatable {
    var sources: [String]

    var transcriptRepresentation: Transcript.DataEntry {
        Transcript.DataEntry(
            id: "attribution-1",
            contentType: UTType("com.example.search-attribution")!,
            content: Data(sources.joined(separator: "\n").utf8),
            metadata: GeneratedContent(properties: ["count": sources.count])
        )
    }

    init(sources: [String]) { self.sources = sources }

    init(_ entry: Transcript.DataEntry) throws {
        guard entry.contentType.identifier == "com.example.search-attribution" else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not an attribution"))
        }
        sources = String(decoding: entry.content, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

extension TranscriptTests {
    /// Data entries (Apple 27.2, `DataAttachments` trait) in the transcript's Codable form.
    @Suite(.tags(.dataAttachments)) struct DataEntryCoding {
        /// Every kind of entry, then a data entry with bytes that are not
        /// UTF-8 and metadata, between a response and the next prompt.
        static func transcript() throws -> Transcript {
            var entries = Array(try everyKindTranscript())
            entries.append(
                .data(
                    Transcript.DataEntry(
                        id: "data-1",
                        contentType: .json,
                        content: Data([0x7B, 0xFF, 0x00, 0x7D]),
                        metadata: GeneratedContent(properties: ["source": "search", "rank": 2])
                    )))
            entries.append(.data(SearchAttribution(sources: ["a.example", "b.example"]).transcriptRepresentation))
            return Transcript(entries: entries)
        }

        @Test func roundTripKeepsDataEntries() throws {
            let transcript = try Self.transcript()
            let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(transcript))
            #expect(decoded == transcript)
            guard case .data(let entry) = decoded.last else {
                Issue.record("the last entry is not a data entry: \(String(describing: decoded.last))")
                return
            }
            #expect(try SearchAttribution(entry) == SearchAttribution(sources: ["a.example", "b.example"]))
            #expect(try entry.metadata.value(Int.self, forProperty: "count") == 2)
        }

        @Test func dataEntryHasItsOwnRoleAndBase64Bytes() throws {
            let object = try jsonObject(try Self.transcript())
            let entries = try #require((object["transcript"] as? [String: Any])?["entries"] as? [[String: Any]])
            let data = try #require(entries.first { $0["id"] as? String == "data-1" })
            #expect(data["role"] as? String == "data")
            #expect(data["contentType"] as? String == "public.json")
            #expect(data["data"] as? String == Data([0x7B, 0xFF, 0x00, 0x7D]).base64EncodedString())
            #expect((data["contents"] as? [Any])?.isEmpty == true)
            let metadata = try GeneratedContent(json: try #require(data["metadata"] as? String))
            #expect(try metadata.value(String.self, forProperty: "source") == "search")
        }

        @Test func aDataEntryWithoutMetadataDecodesWithEmptyMetadata() throws {
            let json = #"""
                {"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": [
                  {"id": "d", "role": "data", "contents": [], "contentType": "public.plain-text", "data": "aGk="}
                ]}}
                """#
            let transcript = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
            #expect(transcript.first == .data(Transcript.DataEntry(id: "d", contentType: .plainText, content: Data("hi".utf8))))
        }

        @Test func anEmptyContentTypeIsRefusedNamingTheKey() throws {
            let json = #"""
                {"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": [
                  {"id": "d", "role": "data", "contents": [], "contentType": "", "data": "aGk="}
                ]}}
                """#
            do {
                _ = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
                Issue.record("an empty content type decoded")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.codingPath.last?.stringValue == "contentType")
            }
        }

        @Test func anUnknownRoleNamesDataAmongTheExpectedOnes() throws {
            let json = #"""
                {"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": [
                  {"id": "d", "role": "blob", "contents": []}
                ]}}
                """#
            do {
                _ = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
                Issue.record("an unknown role decoded")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.debugDescription.contains("reasoning or data"))
            }
        }

        @Test func aDataEntryDescribesItsTypeAndSize() {
            let entry = Transcript.Entry.data(Transcript.DataEntry(id: "x", contentType: .json, content: Data(count: 12)))
            #expect(entry.id == "x")
            #expect(entry.description == "public.json data (12 bytes)")
            #expect(entry.segments.isEmpty)
        }
    }
}
#endif
