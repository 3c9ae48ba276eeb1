import Foundation
import Testing

@testable import FoundationModels

@Suite struct OptionsTests {
    @Test func defaultsAreAllNil() {
        let options = GenerationOptions()
        #expect(options.samplingMode == nil)
        #expect(options.sampling == nil)
        #expect(options.temperature == nil)
        #expect(options.maximumResponseTokens == nil)
        #expect(options.toolCallingMode == nil)
    }

    @Test func bothInitializersAndTheSamplingAlias() {
        let old = GenerationOptions(sampling: .greedy, temperature: 0.3, maximumResponseTokens: 50)
        let new = GenerationOptions(samplingMode: .greedy, temperature: 0.3, maximumResponseTokens: 50)
        #expect(old == new)
        #expect(old.sampling == .greedy)
        var options = GenerationOptions(temperature: 1.2)
        options.sampling = .random(probabilityThreshold: 0.9)
        #expect(options.samplingMode == .random(probabilityThreshold: 0.9, seed: nil))
        #expect(options.temperature == 1.2)
    }

    @Test func samplingModeKinds() {
        #expect(GenerationOptions.SamplingMode.greedy.kind == .greedy)
        #expect(GenerationOptions.SamplingMode.random(top: 40).kind == .randomTopK(40, seed: nil))
        #expect(GenerationOptions.SamplingMode.random(top: 40, seed: 9).kind == .randomTopK(40, seed: 9))
        #expect(GenerationOptions.SamplingMode.random(probabilityThreshold: 0.8, seed: 1).kind == .randomProbabilityThreshold(0.8, seed: 1))
        #expect(GenerationOptions.SamplingMode.random(top: 40) != .random(top: 41))
    }

    @Test func toolCallingModeKinds() {
        #expect(GenerationOptions.ToolCallingMode.allowed.kind == .allowed)
        #expect(GenerationOptions.ToolCallingMode.required.kind == .required)
        #expect(GenerationOptions.ToolCallingMode.disallowed.kind == .disallowed)
        #expect(GenerationOptions(toolCallingMode: .disallowed).toolCallingMode == .disallowed)
    }

    @Test(arguments: [
        GenerationOptions(),
        GenerationOptions(samplingMode: .greedy),
        GenerationOptions(samplingMode: .random(top: 50, seed: 42), temperature: 0.7),
        GenerationOptions(samplingMode: .random(probabilityThreshold: 0.95), maximumResponseTokens: 128, toolCallingMode: .required),
        GenerationOptions(temperature: 0, toolCallingMode: .disallowed),
    ])
    func codableRoundTrip(options: GenerationOptions) throws {
        let decoded = try JSONDecoder().decode(GenerationOptions.self, from: JSONEncoder().encode(options))
        #expect(decoded == options)
    }

    @Test func jsonShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let options = GenerationOptions(
            samplingMode: .random(top: 50, seed: 42), temperature: 0.5, maximumResponseTokens: 10, toolCallingMode: .allowed)
        #expect(
            String(decoding: try encoder.encode(options), as: UTF8.self)
                == #"{"maximumResponseTokens":10,"samplingMode":{"k":50,"seed":42,"type":"topK"},"temperature":0.5,"toolCallingMode":"allowed"}"#)
        #expect(String(decoding: try encoder.encode(GenerationOptions()), as: UTF8.self) == "{}")
        #expect(
            String(decoding: try encoder.encode(GenerationOptions(samplingMode: .greedy)), as: UTF8.self) == #"{"samplingMode":{"type":"greedy"}}"#)
    }

    @Test func badJSONNamesThePath() {
        let cases: [(String, String)] = [
            (#"{"samplingMode":{"type":"beam"}}"#, "samplingMode.type"),
            (#"{"samplingMode":{"type":"topK"}}"#, "samplingMode.k"),
            (#"{"toolCallingMode":"sometimes"}"#, "toolCallingMode"),
            (#"{"temperature":"hot"}"#, "temperature"),
        ]
        for (json, path) in cases {
            do {
                _ = try JSONDecoder().decode(GenerationOptions.self, from: Data(json.utf8))
                Issue.record("decoded \(json)")
            } catch {
                #expect(codingPathDescription(error) == path, "\(json)")
            }
        }
    }

    @Test func validationAcceptsSensibleOptions() throws {
        try GenerationOptions().validate()
        try GenerationOptions(samplingMode: .random(top: 1), temperature: 0, maximumResponseTokens: 1).validate()
        try GenerationOptions(samplingMode: .random(probabilityThreshold: 1), temperature: 2).validate()
        try GenerationOptions(samplingMode: .random(probabilityThreshold: 0.000_1)).validate()
        try GenerationOptions(samplingMode: .greedy, temperature: 0, maximumResponseTokens: .max).validate()
    }

    @Test(arguments: [
        (GenerationOptions(temperature: -0.1), "temperature"),
        (GenerationOptions(temperature: .nan), "temperature"),
        (GenerationOptions(temperature: .infinity), "temperature"),
        (GenerationOptions(temperature: -.infinity), "temperature"),
        (GenerationOptions(maximumResponseTokens: -5), "maximumResponseTokens"),
        (GenerationOptions(maximumResponseTokens: 0), "maximumResponseTokens"),
        (GenerationOptions(maximumResponseTokens: .min), "maximumResponseTokens"),
        (GenerationOptions(samplingMode: .random(top: 0)), "samplingMode"),
        (GenerationOptions(samplingMode: .random(top: -3, seed: 1)), "samplingMode"),
        (GenerationOptions(samplingMode: .random(probabilityThreshold: 1.5)), "samplingMode"),
        (GenerationOptions(samplingMode: .random(probabilityThreshold: -0.2)), "samplingMode"),
        (GenerationOptions(samplingMode: .random(probabilityThreshold: 0)), "samplingMode"),
        (GenerationOptions(samplingMode: .random(probabilityThreshold: .nan)), "samplingMode"),
    ])
    func validationRejectsNonsense(options: GenerationOptions, option: String) {
        do {
            try options.validate()
            Issue.record("accepted \(options)")
        } catch {
            #expect(error.option == option)
            #expect(error.errorDescription?.hasPrefix("Invalid generation option '\(option)': ") == true)
        }
    }

    @Test func creatingNonsenseDoesNotThrow() {
        // As in Apple's framework: nothing is checked until a request.
        let options = GenerationOptions(samplingMode: .random(top: -3), temperature: -1, maximumResponseTokens: -1)
        #expect(options.maximumResponseTokens == -1)
    }
}
