// fm-fuzz: libFuzzer over the parsers that read untrusted input. Built and
// run by `make fuzz` only (Package.swift adds the target when
// FOUNDATION_MODELS_FUZZ=1); see docs/ARCHITECTURE.md, "Tests".
//
//     fm-fuzz <target> [libFuzzer options] [corpus folders or input files]
//
// The first argument names the target (FuzzTargets.all); the rest goes to
// libFuzzer unchanged, so a crash file replays with
// `fm-fuzz <target> crash-…`.
import Foundation

/// libFuzzer's entry point for programs with their own `main`.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
guard CommandLine.arguments.count >= 2, let target = FuzzTargets.named(CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: fm-fuzz <target> [libFuzzer options] [corpus…]; targets: \(names)\n".utf8))
    exit(2)
}
FuzzTargets.selected = target
// libFuzzer sees the program name followed by its own arguments.
var arguments: [UnsafeMutablePointer<CChar>?] =
    [CommandLine.unsafeArgv[0]]
    + (2..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0] } + [nil]
var argc = CInt(arguments.count - 1)
let status = arguments.withUnsafeMutableBufferPointer { buffer -> CInt in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, count in
        FuzzTargets.selected?.run(UnsafeBufferPointer(start: data, count: count))
        return 0
    }
}
exit(status)
