// A kubelet's refusal as the API server's client sees it. For pods/log,
// kube-apiserver checks the kubelet's answer with its generic response
// checker: a 400 becomes a BadRequest with the kubelet's text, a 500 an
// InternalError, anything else a "generic server response" naming pods/log.

import { StatusError, errors, type StatusDetails } from '../../errors/status';
import { KubeletError } from '../../kubelet/connection';

/** Go's NewGenericServerResponse with an empty verb, for the codes a kubelet answers. */
function genericServerResponse(code: number, resource: string, name: string, serverMessage: string): StatusError {
  let reason = '';
  let message = `the server responded with the status code ${code} but did not return more information`;
  if (code === 404) {
    reason = 'NotFound';
    message = 'the server could not find the requested resource';
  } else if (code === 403) {
    reason = 'Forbidden';
    message = serverMessage;
  } else if (code === 401) {
    reason = 'Unauthorized';
    message = 'the server has asked for the client to provide credentials';
  } else if (code === 503) {
    reason = 'ServiceUnavailable';
    message = 'the server is currently unable to handle the request';
  } else if (code >= 500) {
    reason = 'InternalError';
    message = `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
  }
  // The verb is empty: Go's "%s (%s %s %s)" leaves two spaces' worth of it.
  message = `${message} ( ${resource} ${name})`;
  const details: StatusDetails = { name, kind: resource };
  return new StatusError(code, reason, message, details);
}

/** pods/log: the kubelet's answer through kube's GenericHttpResponseChecker. */
export function logErrorToStatus(error: unknown, podName: string): StatusError | undefined {
  if (!(error instanceof KubeletError)) return undefined;
  if (error.code === 400) return errors.badRequest(error.message);
  if (error.code === 500) return errors.internal(error.message);
  return genericServerResponse(error.code, 'pods/log', podName, error.message);
}
