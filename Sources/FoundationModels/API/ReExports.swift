// Observation's names (`@Observable`, `@ObservationIgnored`, `Observable`,
// `withObservationTracking`) are visible wherever FoundationModels is.
//
// App files written for Apple's SDK declare `@Observable` view models with
// only `import Foundation` and `import FoundationModels`, and compile there.
// On Linux nothing such a file imports exports Observation (Foundation does
// not), so the same file failed here with "unknown attribute 'Observable'".
// The module depends on Observation already: SystemLanguageModel and
// LanguageModelSession are `Observable`, as Apple's are.
@_exported import Observation
