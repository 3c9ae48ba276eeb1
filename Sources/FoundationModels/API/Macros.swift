// The public declarations of the `@Generable` and `@Guide` macros. Their
// implementations live in the `FoundationModelsMacros` compiler plugin; the
// expansion is described in docs/MACROS.md.

/// Conforms a structure or enumeration to ``Generable`` so a language model
/// can generate instances of it.
///
/// On a structure, every stored property becomes a property of the generated
/// schema, in declaration order; `@Guide` annotations add descriptions and
/// constraints. Enumerations without associated values become a choice of
/// strings; enumerations with associated values become a tagged choice whose
/// content carries a `"case"` discriminator.
///
/// - Parameter description: A description of the type for the model.
@attached(
    extension,
    conformances: Generable,
    names: named(init(_:)), named(generatedContent)
)
@attached(member, names: arbitrary)
public macro Generable(description: String? = nil) =
    #externalMacro(module: "FoundationModelsMacros", type: "GenerableMacro")

/// Conforms a structure or enumeration to ``Generable``, choosing how `nil`
/// optional properties appear in its ``GeneratedContent``.
///
/// - Parameters:
///   - description: A description of the type for the model.
///   - representNilExplicitlyInGeneratedContent: When `true`, a `nil`
///     optional property is written as an explicit `null`; when `false` it is
///     left out of the generated content.
@attached(
    extension,
    conformances: Generable,
    names: named(init(_:)), named(generatedContent)
)
@attached(member, names: arbitrary)
public macro Generable(
    description: String? = nil,
    representNilExplicitlyInGeneratedContent: Bool
) = #externalMacro(module: "FoundationModelsMacros", type: "GenerableMacro")

/// Conforms a structure or enumeration to ``Generable`` under a schema name
/// of your choosing (the name a model sees, instead of the type's).
///
/// - Parameters:
///   - name: The schema's name.
///   - description: A description of the type for the model.
///   - representNilExplicitlyInGeneratedContent: Whether a `nil` optional
///     property is written as an explicit `null`.
@attached(
    extension,
    conformances: Generable,
    names: named(init(_:)), named(generatedContent)
)
@attached(member, names: arbitrary)
public macro Generable(
    name: String,
    description: String? = nil,
    representNilExplicitlyInGeneratedContent: Bool = false
) = #externalMacro(module: "FoundationModelsMacros", type: "GenerableMacro")

/// Declares a session property: a stored value of ``SessionPropertyValues``
/// with a default, read and written with `@SessionProperty`.
///
/// ```swift
/// extension SessionPropertyValues {
///     @SessionPropertyEntry var tone: String = "friendly"
/// }
/// ```
@attached(accessor)
@attached(peer, names: prefixed(__Key_))
public macro SessionPropertyEntry() =
    #externalMacro(module: "FoundationModelsMacros", type: "SessionPropertyEntryMacro")

/// Describes a property of a `@Generable` type and constrains the values the
/// model may generate for it.
///
/// - Parameters:
///   - description: A description of the property for the model.
///   - guides: Constraints on the generated value.
@attached(peer)
public macro Guide<T>(description: String? = nil, _ guides: GenerationGuide<T>...) =
    #externalMacro(module: "FoundationModelsMacros", type: "GuideMacro") where T: Generable

/// Constrains a `String` property of a `@Generable` type to match a regular
/// expression.
///
/// - Parameters:
///   - description: A description of the property for the model.
///   - guides: The pattern generated strings must match.
@attached(peer)
public macro Guide<RegexOutput>(description: String? = nil, _ guides: Regex<RegexOutput>) =
    #externalMacro(module: "FoundationModelsMacros", type: "GuideMacro")

/// Describes a property of a `@Generable` type for the model.
///
/// - Parameter description: A description of the property for the model.
@attached(peer)
public macro Guide(description: String) =
    #externalMacro(module: "FoundationModelsMacros", type: "GuideMacro")
