/** Spec §5 text for an upload over the limit, with the configured size ('File is too large. Max size is 10MB.'). */
export function fileTooLargeMessage(maxBytes: number): string {
  return `File is too large. Max size is ${Number((maxBytes / 1024 / 1024).toFixed(1))}MB.`;
}
