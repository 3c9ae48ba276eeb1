import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// The `@Generable` macro: conforms a struct or enum to `Generable`.
///
/// It is attached twice. The member role adds `generationSchema` (and, for
/// structs, `PartiallyGenerated`); the extension role adds the conformance
/// with `init(_:)` and `generatedContent`. Both roles run the same analysis;
/// only the member role reports its diagnostics, and neither generates code
/// when there is an error, so a mistake yields one clear message instead of
/// a cascade of type-checking errors.
///
/// A protocol, so that the compiler plugin (`FoundationModelsMacros`, whose
/// types the compiler finds by module and name) and the expansion tests
/// share this one implementation: each conforms a type of its own.
public protocol GenerableExpansion: MemberMacro, ExtensionMacro {}

extension GenerableExpansion {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        var log = DiagnosticLog()
        let plan = GenerablePlan(attribute: node, declaration: declaration, log: &log)
        for diagnostic in log.diagnostics {
            context.diagnose(diagnostic)
        }
        guard !log.hasErrors, let plan else { return [] }
        return plan.members()
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        var log = DiagnosticLog()
        guard let plan = GenerablePlan(attribute: node, declaration: declaration, log: &log),
            !log.hasErrors
        else { return [] }
        // `protocols` is empty when the type already declares `Generable`.
        let conformance = protocols.isEmpty ? "" : ": nonisolated FoundationModels.Generable"
        let declaration: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
            \(raw: plan.extensionMembers())
            }
            """
        guard let extensionDecl = declaration.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }
}

/// What `@Generable` will generate for one declaration: the analysis of a
/// struct or enum, or `nil` (with a diagnostic) for anything else.
enum GenerablePlan {
    case structure(StructExpansion)
    case choice(EnumExpansion)
    case taggedChoice(TaggedEnumExpansion)

    init?(attribute: AttributeSyntax, declaration: some DeclGroupSyntax, log: inout DiagnosticLog) {
        let arguments = GenerableArguments(attribute: attribute, log: &log)
        let access = AccessLevel.prefix(for: declaration)
        if let structDecl = declaration.as(StructDeclSyntax.self) {
            let analysis = PropertyAnalysis(members: structDecl.memberBlock.members, log: &log)
            self = .structure(
                StructExpansion(
                    arguments: arguments,
                    properties: analysis.properties,
                    access: access
                )
            )
        } else if let enumDecl = declaration.as(EnumDeclSyntax.self) {
            let analysis = EnumAnalysis(declaration: enumDecl, log: &log)
            let name = enumDecl.name.text
            if analysis.isTagged {
                self = .taggedChoice(
                    TaggedEnumExpansion(typeName: name, arguments: arguments, cases: analysis.cases, access: access)
                )
            } else {
                self = .choice(EnumExpansion(typeName: name, arguments: arguments, cases: analysis.cases, access: access))
            }
        } else {
            log.report(.unsupportedDeclaration(kind: Self.kind(of: declaration)), at: attribute)
            return nil
        }
    }

    func members() -> [DeclSyntax] {
        switch self {
        case .structure(let expansion): return expansion.members()
        case .choice(let expansion): return expansion.members()
        case .taggedChoice(let expansion): return expansion.members()
        }
    }

    func extensionMembers() -> String {
        switch self {
        case .structure(let expansion): return expansion.extensionMembers()
        case .choice(let expansion): return expansion.extensionMembers()
        case .taggedChoice(let expansion): return expansion.extensionMembers()
        }
    }

    /// How a diagnostic names an unsupported declaration ("a class", …).
    private static func kind(of declaration: some DeclGroupSyntax) -> String {
        if declaration.is(ClassDeclSyntax.self) { return "a class" }
        if declaration.is(ActorDeclSyntax.self) { return "an actor" }
        if declaration.is(ProtocolDeclSyntax.self) { return "a protocol" }
        if declaration.is(ExtensionDeclSyntax.self) { return "an extension" }
        return "this declaration"
    }
}
