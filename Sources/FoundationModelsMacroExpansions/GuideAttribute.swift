import SwiftSyntax

/// What a `@Guide(...)` attribute on a stored property says: an optional
/// description and the guides (generation guides or a regex), kept verbatim.
///
/// `@Guide` itself expands to nothing; `@Generable` reads these attributes
/// off each property and turns them into `GenerationSchema.Property`
/// arguments. Because the `@Guide` overloads never mix regexes with
/// `GenerationGuide`s, every guide expression can go into one `guides:` array
/// and the compiler picks the matching `Property` initializer.
struct GuideAttribute {
    /// The `description:` expression, if written.
    var description: ExprSyntax?
    /// The unlabeled guide expressions (`.range(1...5)`, `/[A-Z]+/`, …), in order.
    var guides: [ExprSyntax] = []

    /// Whether `attribute` names the `Guide` macro (plain or module-qualified).
    static func isGuide(_ attribute: AttributeSyntax) -> Bool {
        let name = attribute.attributeName
        if let identifier = name.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Guide"
        }
        if let member = name.as(MemberTypeSyntax.self) {
            return member.name.text == "Guide"
                && member.baseType.trimmedDescription == "FoundationModels"
        }
        return false
    }

    /// The `@Guide` attributes among `attributes`.
    static func guides(in attributes: AttributeListSyntax) -> [AttributeSyntax] {
        attributes.compactMap { element in
            guard let attribute = element.as(AttributeSyntax.self), isGuide(attribute) else {
                return nil
            }
            return attribute
        }
    }

    init(attribute: AttributeSyntax, log: inout DiagnosticLog) {
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            if argument.label?.text == "description" {
                if DescriptionCheck.isInterpolated(argument.expression) {
                    log.report(.interpolatedDescription, at: argument.expression)
                }
                description = argument.expression.trimmed
            } else if argument.label == nil {
                guides.append(argument.expression.trimmed)
            }
        }
    }
}
