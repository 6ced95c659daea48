#if os(Linux) && canImport(CCurlShim)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The libc calls whose names the file types' own methods (`read(into:)`, `close()`) would hide.
enum POSIXFile {
    /// `read(2)`.
    static func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        read(descriptor, buffer, count)
    }

    /// `close(2)`.
    static func closeFile(_ descriptor: Int32) {
        _ = close(descriptor)
    }
}
#endif
