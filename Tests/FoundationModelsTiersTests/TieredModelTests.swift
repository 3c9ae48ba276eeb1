// The tiers as one LanguageModel (TieredLanguageModel) in a plain session,
// against loopback stub servers that fail on cue: the router's rules per
// request, with a tier's streamed output never taken back.

import Foundation
import FoundationModels
import FoundationModelsTiers
import TestSupport
import Testing

@Suite("The tiers as one model")
struct TieredModelTests {
    static func pcc(_ stub: StubServer) throws -> PrivateCloudComputeLanguageModel {
        try PrivateCloudComputeLanguageModel(url: stub.url, model: "stub", options: ServerOptions(maximumRetries: 0))
    }

    static func device(_ stub: StubServer) throws -> OpenAICompatibleLanguageModel {
        try OpenAICompatibleLanguageModel(baseURL: stub.url, model: "device", options: ServerOptions(maximumRetries: 0))
    }

    @Test("the private tier answers while it can; the session sees one model")
    func theCeilingAnswers() async throws {
        let cloud = try StubServer([OpenAIWire.answer(["from ", "the cloud"])])
        defer { cloud.stop() }
        let device = try StubServer([OpenAIWire.answer(["from the device"])])
        defer { device.stop() }
        let model = TieredLanguageModel(onDevice: try Self.device(device), privateCloud: try Self.pcc(cloud), policy: .cloudFree)
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "hello")
        #expect(response.content == "from the cloud")
        #expect(device.requests.isEmpty)
        #expect(session.transcript.count == 2)
    }

    @Test(
        "a private tier that is down, rate-limited or unavailable hands each request to the device",
        arguments: [
            StubReply.json(429, #"{"error":{"message":"slow down","type":"rate_limit_error"}}"#, headers: [("Retry-After", "30")]),
            StubReply.json(503, #"{"error":{"message":"loading model","type":"unavailable_error"}}"#),
        ])
    func theDeviceAnswersWhenTheCloudCannot(failure: StubReply) async throws {
        let cloud = try StubServer([failure])
        defer { cloud.stop() }
        let device = try StubServer([OpenAIWire.answer(["from ", "the device"])])
        defer { device.stop() }
        let model = TieredLanguageModel(onDevice: try Self.device(device), privateCloud: try Self.pcc(cloud), policy: .cloudFree)
        var snapshots: [String] = []
        for try await snapshot in LanguageModelSession(model: model).streamResponse(to: "hello") {
            snapshots.append(snapshot.content)
        }
        #expect(snapshots.last == "from the device")
        #expect(device.requests.count == 1)
    }

    @Test("a server that is not there at all walks down too")
    func aServerThatIsNotThere() async throws {
        // Port 9 (discard): nothing listens there on a test machine.
        let url = try #require(URL(string: "http://127.0.0.1:9/v1"))
        let device = try StubServer([OpenAIWire.answer(["here"])])
        defer { device.stop() }
        let cloud = try PrivateCloudComputeLanguageModel(url: url, model: "stub", options: ServerOptions(maximumRetries: 0))
        let model = TieredLanguageModel(onDevice: try Self.device(device), privateCloud: cloud, policy: .cloudFree)
        #expect(try await LanguageModelSession(model: model).respond(to: "hello").content == "here")
    }

    @Test("a tier cut short after it streamed text ends the request: nothing already shown is taken back")
    func streamedOutputIsNeverRetracted() async throws {
        let cut = StubReply(chunks: ["data: " + OpenAIWire.chunk(content: "par") + "\n\n"], cutShort: true)
        let cloud = try StubServer([cut])
        defer { cloud.stop() }
        let device = try StubServer([OpenAIWire.answer(["from the device"])])
        defer { device.stop() }
        let model = TieredLanguageModel(onDevice: try Self.device(device), privateCloud: try Self.pcc(cloud), policy: .cloudFree)
        let session = LanguageModelSession(model: model)
        await #expect(throws: (any Error).self) {
            try await session.respond(to: "hello")
        }
        #expect(device.requests.isEmpty)
        #expect(session.transcript.isEmpty)
    }

    @Test("a policy that does not degrade ends with the ceiling's error; .local never leaves the machine")
    func policiesThatStay() async throws {
        let cloud = try StubServer([.json(503, #"{"error":{"message":"down","type":"unavailable_error"}}"#)])
        defer { cloud.stop() }
        let device = try StubServer([OpenAIWire.answer(["local"])])
        defer { device.stop() }
        let strict = TieredLanguageModel(
            onDevice: try Self.device(device), privateCloud: try Self.pcc(cloud), policy: TierPolicy(ceiling: .privateCloud, degrades: false))
        await #expect(throws: PrivateCloudComputeLanguageModel.Error.self) {
            try await LanguageModelSession(model: strict).respond(to: "hello")
        }
        #expect(device.requests.isEmpty)

        let local = TieredLanguageModel(onDevice: try Self.device(device), privateCloud: try Self.pcc(cloud), policy: .local)
        let requestsBefore = cloud.requests.count
        #expect(try await LanguageModelSession(model: local).respond(to: "hello").content == "local")
        #expect(cloud.requests.count == requestsBefore)
    }

    @Test("no tier configured within the policy is the router's error")
    func noTier() async throws {
        let model = TieredLanguageModel(onDevice: nil, privateCloud: nil, policy: .cloudFree)
        await #expect(throws: TierRoutingError.noModel(policy: .cloudFree)) {
            try await LanguageModelSession(model: model).respond(to: "hello")
        }
    }
}
