import Foundation

/// Where a client's ``APIClient/Configuration/commonParameters`` go.
///
/// ```swift
/// let client = APIClient(baseURL: base) {
///     $0.commonParameters = ["app_version": "3.2", "device": deviceID]
///     $0.commonParameterPlacement = .body
/// }
/// ```
///
/// In a body they are merged into what the request sends:
/// - a JSON object gets them as extra members, written as JSON strings (a list as an array of
///   strings), before the request's own members; the request's bytes are otherwise kept as they
///   are;
/// - a form body (`application/x-www-form-urlencoded`, also the one a dictionary literal makes
///   for `POST`) gets them as extra fields;
/// - a multipart body gets them as extra text fields (a list as one field per value).
///
/// A request's own value wins: a name the body already has is not added again. A body that cannot
/// hold them (a JSON array or scalar, raw bytes, a file) is left alone, and so is a request with
/// no body (a `GET`): then they go in the query string instead, so the server always gets them.
public enum CommonParameterPlacement: Sendable, Hashable {
    /// In the query string of every request (the default).
    case query
    /// In the body; in the query string of requests whose body cannot hold them.
    case body
    /// In the query string of every request, and in the body too where it can hold them.
    case queryAndBody
}

extension CommonParameterPlacement {
    /// `body` with `common` merged in, or `nil` when this kind of body cannot hold them.
    static func merge(_ common: QueryItems, into body: RequestBody) -> RequestBody? {
        switch body.storage {
        case .form(let items):
            var merged = items
            merged.append(contentsOf: QueryItems(newItems(common, besides: Set(items.map(\.name)))))
            return .form(merged)
        case .multipart(var form):
            let added = QueryItems(newItems(common, besides: Set(form.parts.map(\.name))))
            for pair in added.pairs(arrayEncoding: .repeatedKey) { form.append(pair.value, name: pair.name) }
            return .multipart(form)
        case .data, .encodable, .encodableForm, .file, .invalid:  // an encodable form is merged once written
            return nil
        }
    }

    /// A JSON object's encoded bytes with `common` spliced in as its first members, or `nil` when
    /// `json` is not an object. The request's own bytes are kept as they are.
    static func merge(_ common: QueryItems, intoJSON json: Data) -> Data? {
        guard let open = json.firstIndex(where: { !$0.isJSONWhitespace }), json[open] == UInt8(ascii: "{"),
            let requestObject = try? JSONSerialization.jsonObject(with: json) as? [String: Any]
        else { return nil }
        let object = jsonObject(newItems(common, besides: Set(requestObject.keys)))
        guard !object.isEmpty,
            let encoded = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return json }
        // `{"a":"1","b":"2"}` without its braces, followed by a comma unless the object is empty.
        var inserted = encoded.dropFirst().dropLast()
        let isEmpty = json[(open + 1)...].first(where: { !$0.isJSONWhitespace }) == UInt8(ascii: "}")
        if !isEmpty { inserted.append(UInt8(ascii: ",")) }
        var merged = json
        merged.insert(contentsOf: inserted, at: open + 1)
        return merged
    }

    /// Parameters as JSON object members: text as strings, a list as an array of strings, nested
    /// parameters as an object. A name given twice becomes a list, as `a=1&a=2` would in a query
    /// string; nested parameters given twice under one name are merged, as `a[b]=1&a[c]=2` would
    /// be; a name that is both text and nested keeps the text.
    private static func jsonObject(_ items: [QueryItems.Item]) -> [String: Any] {
        var members: [String: (values: [String], isList: Bool)] = [:]
        var objects: [String: [QueryItems.Item]] = [:]
        for item in items {
            let (values, isList): ([String], Bool)
            switch item.value {
            case .string(let text): (values, isList) = ([text], false)
            case .array(let texts): (values, isList) = (texts, true)
            case .dictionary(let nested):
                objects[item.name, default: []] += nested.items
                continue
            case .none: continue
            }
            let earlier = members[item.name]
            members[item.name] = ((earlier?.values ?? []) + values, isList || earlier != nil)
        }
        var object = members.mapValues { $0.isList ? $0.values as Any : ($0.values.first ?? "") as Any }
        for (name, nested) in objects where object[name] == nil {
            let value = jsonObject(nested)
            if !value.isEmpty { object[name] = value }
        }
        return object
    }

    /// Whether a content type is JSON (`application/json`, `text/json`, `application/*+json`).
    static func isJSON(_ contentType: String) -> Bool {
        let type = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/json" || type == "text/json" || type.hasSuffix("+json")
    }

    private static func newItems(_ common: QueryItems, besides names: Set<String>) -> [QueryItems.Item] {
        common.items.filter { !names.contains($0.name) && $0.value != .none }
    }
}
