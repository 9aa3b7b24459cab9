/** A response body serialized already (a search answer built from documents' JSON text). */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The API's one reply serializer: JSON, with a {@link JsonText} sent as it is. */
export function serializeReply(data: unknown): string {
  return data instanceof JsonText ? data.text : JSON.stringify(data);
}
