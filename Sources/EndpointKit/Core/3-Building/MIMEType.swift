/// The MIME types EndpointKit infers from file extensions for multipart file parts.
package enum MIMEType {
    /// The built-in table: extension (lowercased, no dot) to MIME type.
    package static let byExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "heif": "image/heif", "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff",
        "svg": "image/svg+xml", "ico": "image/x-icon", "mp4": "video/mp4", "mov": "video/quicktime",
        "m4v": "video/x-m4v",
        "avi": "video/x-msvideo", "webm": "video/webm", "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac",
        "wav": "audio/wav", "ogg": "audio/ogg", "flac": "audio/flac", "pdf": "application/pdf",
        "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar", "json": "application/json",
        "xml": "application/xml", "txt": "text/plain", "csv": "text/csv", "html": "text/html", "htm": "text/html",
        "css": "text/css", "js": "text/javascript", "md": "text/markdown", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ]

    /// `application/octet-stream`, for unknown extensions.
    package static let fallback = "application/octet-stream"

    /// The MIME type for a file name's extension, or ``fallback``.
    package static func forFileName(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fallback }
        return byExtension[fileName[fileName.index(after: dot)...].lowercased()] ?? fallback
    }
}
