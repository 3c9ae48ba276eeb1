// Apple 27.2's additions (beta documentation, marked 27.2), beside beta 5's
// list: apple27.2-declarations.tsv, in the same normalized form. They are
// declared under the `DataAttachments` package trait (an enum case beyond
// the shipped SDK breaks apps' exhaustive switches), so the module is
// compiled twice: with the trait's condition every addition must be there
// exactly, and without it none may be.
//
// The list holds what the documentation states: the data attachment and
// data entry types, their initializers and properties, the two
// `LanguageModel` requirements, the executor channel's data-entry event,
// and the conformances the pages list (or the ones an enclosing type's force:
// `Transcript.DataAttachment` is `Sendable` and `Equatable` because
// `Transcript.Attachment` is). `Transcript.Entry.data` is named by the
// documentation but its page was not found; its payload is taken to be
// `Transcript.DataEntry`, as `Attachment.data` carries a `DataAttachment`.

import Foundation
import Testing

@Suite("Apple 27.2's additions (DataAttachments trait), declaration by declaration")
struct APICheck27_2Tests {
    static let list = "apple27.2-declarations.tsv"

    @Test("with the trait, every 27.2 addition is in the module exactly; without it, none is")
    func additions() throws {
        let additions = try Reference.apple(Self.list)
        #expect(additions.count == 42, "the list has \(additions.count) rows")
        #expect(additions.allSatisfy { $0.availability == "27.2" })
        let on = Set(InterfaceReader.declarations(in: try ModuleInterface.emittedWithDataAttachments.get()))
        let off = Set(InterfaceReader.declarations(in: try ModuleInterface.emitted.get()))
        let exact = additions.filter { on.contains($0.declaration) }
        print("Apple 27.2 additions with the DataAttachments trait: \(exact.count) of \(additions.count) exact")
        for row in additions where !on.contains(row.declaration) {
            Issue.record("27.2 addition missing or different with the trait: \(row.declaration)")
        }
        for row in additions where off.contains(row.declaration) {
            Issue.record("27.2 addition present with the trait off (an app's exhaustive switch would break): \(row.declaration)")
        }
        // Nothing beta 5 declares goes away when the trait is on.
        let beta5 = try Reference.apple().filter { $0.bucket == "main" }.map(\.declaration)
        let lost = beta5.filter { off.contains($0) && !on.contains($0) }
        #expect(lost.isEmpty, "declarations the trait removes: \(lost)")
    }
}
