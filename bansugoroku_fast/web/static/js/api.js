// Calls of the server's API, with the page's session token.
//
// The token lives in sessionStorage (this tab only). A call refused with 401
// (the session expired) opens a new session once and says so.

const TOKEN_KEY = "bansugoroku-session";

export class ApiError extends Error {
  constructor(status, message, type) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

async function send(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    throw new ApiError(response.status, `the server answered ${response.status} without JSON`, "");
  }
  if (!response.ok) {
    throw new ApiError(response.status, data.error || `error ${response.status}`, data.type || "");
  }
  return data;
}

export async function openSession() {
  const data = await send("POST", "/api/sessions");
  sessionStorage.setItem(TOKEN_KEY, data.token);
  return data.token;
}

export function hasSession() {
  return Boolean(sessionStorage.getItem(TOKEN_KEY));
}

// A call in the page's session; `onExpired` is told when a new session had to be opened.
export async function call(method, path, body, onExpired) {
  let token = sessionStorage.getItem(TOKEN_KEY) || (await openSession());
  try {
    return await send(method, path, body, token);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    token = await openSession();
    if (onExpired) onExpired();
    return await send(method, path, body, token);
  }
}

// A call that needs no session (the API any program uses).
export function open(method, path, body) {
  return send(method, path, body, null);
}
