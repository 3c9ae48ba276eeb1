import FoundationModels
import Testing

/// What the tests on the real default model (installed by `make setup`)
/// share across test targets: the library's on-device suites and fm's
/// command-line suites, which run the `fm` program on the same model.
/// FoundationModelsTests adds its engine configurations in an extension.
package enum OnDevice {
    /// The installed default model, or a clear failure telling how to get it.
    package static func requireModel(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let availability = SystemLanguageModel.default.availability
        try #require(
            availability == .available,
            "The default model is not installed (\(availability)); run `make setup` or set FOUNDATION_MODELS_MODEL.",
            sourceLocation: sourceLocation
        )
    }
}
