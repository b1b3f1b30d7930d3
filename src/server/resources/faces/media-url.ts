// Face media kept as a path on this service (the built-in faces' images) is handed out as an absolute
// address, so that customer pages load it from the service, not from themselves.
export function faceMediaUrl(publicUrl: string, url: string | null): string | null {
  return url?.startsWith('/') ? `${publicUrl}${url}` : url;
}
