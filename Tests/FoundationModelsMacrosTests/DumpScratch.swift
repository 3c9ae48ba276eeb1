// TEMPORARY: dumps expansions for review. Not committed.
import Foundation
import FoundationModelsMacros
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

@Test func dumpExpansions() throws {
    let dir = URL(fileURLWithPath: "/tmp/dump/in")
    for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".swift") {
        let source = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "M", fullFilePath: "t.swift")])
        let expanded = file.expand(
            macroSpecs: testMacros,
            contextGenerator: { BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts()) },
            indentationWidth: .spaces(4)
        )
        var out = expanded.description + "\n// DIAGNOSTICS\n"
        for d in context.diagnostics {
            let loc = d.location(converter: SourceLocationConverter(fileName: "t.swift", tree: file))
            out += "// \(d.diagMessage.severity) \(loc.line):\(loc.column) \(d.message)\n"
        }
        try out.write(to: URL(fileURLWithPath: "/tmp/dump/" + name), atomically: true, encoding: .utf8)
    }
}
