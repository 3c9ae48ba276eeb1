import SwiftSyntax

/// A property or payload type as the expansion needs to spell it.
///
/// The macro only sees syntax, so it recognises optionals by their spelling
/// (`T?`, `T!`, `Optional<T>`, `Swift.Optional<T>`) and unwraps them once:
/// the schema uses the `Value?.Type` overload of `GenerationSchema.Property`,
/// and `PartiallyGenerated` uses `T.PartiallyGenerated?` rather than a double
/// optional.
struct TypeSpelling {
    /// The type with one level of optionality removed, or the type itself.
    let unwrapped: TypeSyntax
    /// Whether the written type is an optional.
    let isOptional: Bool

    init(_ type: TypeSyntax) {
        if let wrapped = Self.wrappedType(of: type) {
            unwrapped = wrapped.trimmed
            isOptional = true
        } else {
            unwrapped = type.trimmed
            isOptional = false
        }
    }

    /// The type as an operand of `.self`: `Int.self`, `Double?.self`, `[String].self`.
    var metatypeExpression: String {
        let base = Self.parenthesizedIfNeeded(unwrapped)
        return isOptional ? "\(base)?.self" : "\(base).self"
    }

    /// The property type inside `PartiallyGenerated`: `T.PartiallyGenerated?`.
    var partiallyGeneratedType: String {
        "\(Self.parenthesizedIfNeeded(unwrapped)).PartiallyGenerated?"
    }

    /// Whether the (unwrapped) type is `GenerationID`, which identifies a
    /// generation rather than being generated itself.
    var isGenerationID: Bool {
        if let identifier = unwrapped.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "GenerationID" && identifier.genericArgumentClause == nil
        }
        if let member = unwrapped.as(MemberTypeSyntax.self) {
            return member.name.text == "GenerationID"
                && member.baseType.trimmedDescription == "FoundationModels"
        }
        return false
    }

    /// Whether the (unwrapped) type is a standard library value that is
    /// `Hashable`, so an `Optional` of it can serve as an `Identifiable` id.
    var isHashablePrimitive: Bool {
        guard let identifier = unwrapped.as(IdentifierTypeSyntax.self),
            identifier.genericArgumentClause == nil
        else { return false }
        return ["String", "Int", "Double", "Float", "Bool", "Decimal"].contains(identifier.name.text)
    }

    private static func wrappedType(of type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) {
            return optional.wrappedType
        }
        if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return iuo.wrappedType
        }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional" {
            return singleTypeArgument(identifier.genericArgumentClause)
        }
        if let member = type.as(MemberTypeSyntax.self), member.name.text == "Optional",
            member.baseType.trimmedDescription == "Swift"
        {
            return singleTypeArgument(member.genericArgumentClause)
        }
        return nil
    }

    private static func singleTypeArgument(_ clause: GenericArgumentClauseSyntax?) -> TypeSyntax? {
        guard let clause, clause.arguments.count == 1, let argument = clause.arguments.first,
            case .type(let type) = argument.argument
        else { return nil }
        return type
    }

    /// Wraps types that can't be followed by `?` or `.member` directly.
    private static func parenthesizedIfNeeded(_ type: TypeSyntax) -> String {
        if type.is(SomeOrAnyTypeSyntax.self) || type.is(FunctionTypeSyntax.self)
            || type.is(CompositionTypeSyntax.self) || type.is(AttributedTypeSyntax.self)
        {
            return "(\(type.trimmedDescription))"
        }
        return type.trimmedDescription
    }
}

/// Spelling helpers for names that go both into code and into JSON keys.
enum NameSpelling {
    /// The name as JSON sees it: backticks removed.
    static func key(_ token: TokenSyntax) -> String {
        token.identifier?.name ?? token.text
    }

    /// A Swift string literal containing `text`, escaped.
    static func stringLiteral(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default: escaped.append(character)
            }
        }
        return "\"\(escaped)\""
    }
}

/// Spells lists in generated code one element per line, so long schemas
/// stay readable in expanded source.
enum CodeList {
    /// `[]`, or `[\n a,\n b\n]`.
    static func array(_ elements: [String]) -> String {
        elements.isEmpty ? "[]" : "[\n\(elements.joined(separator: ",\n"))\n]"
    }
}
