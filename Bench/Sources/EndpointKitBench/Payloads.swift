import Foundation

/// The bytes the benchmark serves and decodes.
enum Payloads {
    /// The body of `/model`: one ``UserModel``.
    static let user = Data(
        #"{"id":42,"name":"Ada Lovelace","email":"ada@example.com","active":true,"score":98.5,"tags":["admin","beta"]}"#
            .utf8)

    /// A `statusResult` envelope (`{"status":200,"errCode":null,"errMsg":null,"page":{..},"result":[..]}`)
    /// around `count` ``Item``s: about 5 MB for 20,000.
    static func itemPage(count: Int) -> Data {
        var text =
            #"{"status":200,"errCode":null,"errMsg":null,"page":{"totalRows":\#(count),"hasMore":false},"result":["#
        text.reserveCapacity(count * 260 + 200)
        for index in 0..<count {
            if index > 0 { text += "," }
            text += #"{"id":\#(index),"name":"Item number \#(index)","email":"user\#(index)@example.com","#
            text += #""active":\#(index % 2 == 0),"score":\#(Double(index) * 1.25),"#
            text += #""createdAt":"2024-05-\#(10 + index % 19)T12:34:56Z","tags":["alpha","beta","gamma"],"#
            text +=
                #""address":{"street":"\#(index) Long Example Street","city":"Springfield","zip":"\#(10000 + index % 89999)"}}"#
        }
        text += "]}"
        return Data(text.utf8)
    }
}
