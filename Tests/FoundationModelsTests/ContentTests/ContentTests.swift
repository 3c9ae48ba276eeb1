/// Namespace for the tests of `GeneratedContent`, its JSON parser/printer
/// and the built-in conversions (run with `swift test --filter ContentTests`).
enum ContentTests {}
