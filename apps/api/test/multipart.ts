/** A multipart/form-data body with one file part, for app.inject. */
export function multipartFile(name: string, content: string | Uint8Array, type = 'text/csv', field = 'file') {
  const boundary = `----backsignal${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([
    head,
    typeof content === 'string' ? Buffer.from(content) : Buffer.from(content),
    tail,
  ]);
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
