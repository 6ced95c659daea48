import Foundation

/// The text encoding a response's `Content-Type` names with its `charset` parameter, for `String`
/// responses (UTF-8 when it names none).
enum TextCharset {
    /// The `charset` parameter of a `Content-Type` value, lowercased and unquoted; `nil` when
    /// there is none.
    static func name(inContentType value: String?) -> String? {
        guard let value, var name = MediaType.parameters(of: value).first(where: { $0.name == "charset" })?.value
        else { return nil }
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        return name.isEmpty ? nil : name.lowercased()
    }

    /// The encoding of an IANA charset name (and its common aliases); `nil` for one Foundation
    /// cannot decode on every platform.
    static func encoding(named name: String) -> String.Encoding? {
        switch name {
        case "utf-8", "utf8": return .utf8
        case "us-ascii", "ascii": return .ascii
        case "iso-8859-1", "latin1", "iso_8859-1", "l1": return .isoLatin1
        case "iso-8859-2", "latin2", "iso_8859-2", "l2": return .isoLatin2
        case "windows-1250", "cp1250": return .windowsCP1250
        case "windows-1251", "cp1251": return .windowsCP1251
        case "windows-1252", "cp1252": return .windowsCP1252
        case "windows-1253", "cp1253": return .windowsCP1253
        case "windows-1254", "cp1254": return .windowsCP1254
        case "utf-16": return .utf16
        case "utf-16be": return .utf16BigEndian
        case "utf-16le": return .utf16LittleEndian
        case "utf-32": return .utf32
        case "utf-32be": return .utf32BigEndian
        case "utf-32le": return .utf32LittleEndian
        case "shift_jis", "shift-jis", "sjis": return .shiftJIS
        case "euc-jp": return .japaneseEUC
        case "iso-2022-jp": return .iso2022JP
        case "macintosh", "mac": return .macOSRoman
        default: return nil
        }
    }
}
