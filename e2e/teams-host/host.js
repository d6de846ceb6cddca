// The host side of the Microsoft Teams JavaScript client library's protocol (teams-js 2.x), enough
// for BTalk's tab: frames the tab and answers its postMessage requests as the Teams web client does.
// Requests are `{ id, uuidAsString, func, args }`; answers `{ id, uuidAsString, args }`; events from
// the host are `{ func, args }`. Query parameters: `tab` (the tab's URL), `theme`, `locale`,
// `subEntityId` (a deep link's sub-entity), `answer=none` (a host that never answers).
// The single sign-on token comes from `window.teamsHostSsoToken()`, which the test provides.
(() => {
  const params = new URLSearchParams(window.location.search);
  const tabUrl = new URL(params.get('tab') ?? '');
  const tabOrigin = tabUrl.origin;
  const frame = document.getElementById('tab');
  // What the tab can use: teams-js 2.x reads a runtime of API version 4 from `initialize`.
  const runtime = JSON.stringify({
    apiVersion: 4,
    hostVersionsInfo: { adaptiveCardSchemaVersion: { majorVersion: 1, minorVersion: 5 } },
    isLegacyTeams: false,
    supports: {
      appInstallDialog: {},
      pages: { appButton: {}, tabs: {}, config: {}, backStack: {} },
      teamsCore: {},
    },
  });

  const host = {
    /** Each request's `func`, in order, from the tab and from the authentication popup. */
    calls: [],
    /** The events the tab registered handlers for (`registerHandler`). */
    handlers: [],
    /** Teams' theme now; `themeChange` tells the tab of a new one. */
    theme: params.get('theme') ?? 'default',
    themeChange(theme) {
      host.theme = theme;
      frame.contentWindow.postMessage({ func: 'themeChange', args: [theme] }, tabOrigin);
    },
  };
  window.teamsHost = host;

  let popup = null;
  let authenticating = null;
  let popupWatch = null;

  const answer = (target, request, args) =>
    target.postMessage({ id: request.id, uuidAsString: request.uuidAsString, args }, tabOrigin);

  const finishAuthentication = (args) => {
    if (!authenticating) return;
    answer(frame.contentWindow, authenticating, args);
    authenticating = null;
    clearInterval(popupWatch);
  };

  window.addEventListener('message', async (event) => {
    if (event.origin !== tabOrigin) return;
    const fromTab = event.source === frame.contentWindow;
    const fromPopup = popup !== null && event.source === popup;
    const request = event.data;
    if ((!fromTab && !fromPopup) || !request || typeof request.func !== 'string') return;
    host.calls.push(request.func);
    if (params.get('answer') === 'none') return;
    switch (request.func) {
      case 'initialize':
        answer(event.source, request, [fromTab ? 'content' : 'authentication', 'web', runtime, '2.0.0']);
        break;
      case 'getContext':
        answer(event.source, request, [
          {
            theme: host.theme,
            locale: params.get('locale') ?? 'en-us',
            entityId: 'btalk',
            subEntityId: params.get('subEntityId') ?? undefined,
            frameContext: 'content',
            hostClientType: 'web',
            hostName: 'Teams',
            userObjectId: params.get('userObjectId') ?? undefined,
            tid: params.get('tid') ?? undefined,
          },
        ]);
        break;
      case 'authentication.getAuthToken': {
        let token = null;
        try {
          token = typeof window.teamsHostSsoToken === 'function' ? await window.teamsHostSsoToken() : null;
        } catch {
          token = null;
        }
        answer(event.source, request, token ? [true, token] : [false, 'resourceDisabled']);
        break;
      }
      case 'authentication.authenticate': {
        // Teams opens the page the tab names in a popup and answers once the popup reports back.
        const [url, width, height] = request.args;
        if (new URL(url).origin !== tabOrigin) {
          answer(event.source, request, [false, 'the authentication page must be on the tab origin']);
          break;
        }
        authenticating = request;
        popup = window.open(
          url,
          'teams-authentication',
          `popup,width=${width ?? 600},height=${height ?? 600}`,
        );
        if (!popup) {
          finishAuthentication([false, 'FailedToOpenWindow']);
          break;
        }
        popupWatch = setInterval(() => {
          if (popup.closed) finishAuthentication([false, 'CancelledByUser']);
        }, 100);
        break;
      }
      case 'authentication.authenticate.success':
        finishAuthentication([true, request.args?.[0]]);
        break;
      case 'authentication.authenticate.failure':
        finishAuthentication([false, request.args?.[0]]);
        break;
      case 'registerHandler':
        host.handlers.push(request.args?.[0]);
        break;
      default:
        // Requests the tab does not wait for (e.g. that the app loaded) go unanswered.
        break;
    }
  });

  frame.src = tabUrl.href;
})();
