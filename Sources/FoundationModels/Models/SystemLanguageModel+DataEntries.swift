#if DataAttachments
import Foundation
#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

extension SystemLanguageModel {
    /// The in-process model takes data entries whose bytes are text (plain
    /// text, JSON, XML, HTML, Markdown, CSV, YAML, source code): it is a
    /// text model, and these read as they are, rendered into its chat as a
    /// turn that names the type (ChatRendering+DataEntries.swift). Binary
    /// types are refused before anything is rendered.
    public nonisolated(nonsending) func supportsDataEntryType(_ type: UTType) async throws -> Bool {
        TextualContentType.isTextual(type)
    }
}
#endif
