import Foundation
import GeoNewsTraces

#if canImport(Glibc)
import Glibc
#endif

#if GEONEWS_FUZZ
import CLibFuzzer

/// The executable's entry point under `-sanitize=fuzzer`: hands the command line to
/// libFuzzer's driver with the selected target's property check.
@_cdecl("GeoNewsFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    FuzzTarget.selected.prepare()
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
}

/// The standard libFuzzer entry, which the driver and libFuzzer's own `main` both call.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.selected.check(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
/// Without libFuzzer: replays files or corpus folders through a target's property check,
/// `geonews-fuzz-replay <target> <file or folder>…`, so that a corpus and any crash input
/// can be rerun in an ordinary build (and under a debugger).
@main
struct FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            writeToStandardError("usage: GeoNewsFuzz <\(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|"))> <file or folder>…\n")
            exit(64)
        }
        var count = 0
        for path in arguments.dropFirst() {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                writeToStandardError("GeoNewsFuzz: no such file or folder: \(path)\n")
                exit(66)
            }
            let files =
                isFolder.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target.check(Array(data))
                count += 1
            }
        }
        print("\(target.rawValue): \(count) inputs, every property held")
    }
}
#endif
