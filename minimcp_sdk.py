"""minimcp_sdk: The official SDK's names: servers written for mcp or fastmcp run unchanged.

A component of minimcp. It plugs itself into minimcp.py (the core, which must be beside it
and of the same version) when imported; the core imports it on first use of a name it
provides. ``python3 minimcp.py bundle -o FILE`` writes the core and its components as one
file, leaving out this header (everything above the first section banner).
"""
# The header: imports and the version check (bundle leaves out all above the first banner)
import json
import os
import sys
import threading

import minimcp

__version__ = "0.1.0"
if minimcp.__version__ != __version__:
    raise ImportError("%s is minimcp %s's, but %s is minimcp %s: copy both from one release"
                      % (os.path.basename(__file__), __version__, minimcp.__file__, minimcp.__version__))

from minimcp import (  # noqa: E402
    Audio,
    Cancelled,
    Context,
    INTERNAL_ERROR,
    INVALID_REQUEST,
    Image,
    LATEST_HANDSHAKE_VERSION,
    MCPError,
    MCPServer,
    METHODS,
    METHOD_NOT_FOUND,
    MISSING_CLIENT_CAPABILITY,
    SchemaError,
    _DIALECTS,
    _EMPTY,
    _LAX_BOOLEANS,
    _OwnedStdio,
    _Signature,
    _b64,
    _class_hints,
    _class_namespace,
    _clean_doc,
    _field_annotation,
    _field_default,
    _is_dataclass,
    _is_enum,
    _is_field_info,
    _is_pydantic_model,
    _is_typeddict,
    _json_default,
    _plug,
    _pydantic,
    _resolve_annotation,
    _run_coroutine,
    _schema_for,
    _shape_prompt,
    _shape_resource,
    _shape_tool,
    _shaped,
    _typing_parts,
)


# The official SDK's names: servers written for it run unchanged ##############
#
# ``python3 minimcp.py serve server.py`` (or install_sdk_aliases() in a script
# that starts itself) lets a file that imports ``mcp.server.fastmcp`` (mcp 1.x),
# ``mcp.server.mcpserver`` (mcp 2.x) or ``fastmcp`` run on minimcp when those
# packages are not installed. The alias modules hold every public module and
# name of those SDKs (the table below, written from the pinned SDKs by
# tests/interop/sdk_surface.py): the names servers use are backed by minimcp,
# the others are placeholders that explain themselves when used, and a name the
# SDK does not have raises ImportError. The finder sits at the end of
# sys.meta_path, so an installed package is always found first. Nothing here is
# built until it is asked for: ``import minimcp`` costs what it did.

# <sdk-surface> written by tests/interop/sdk_surface.py; do not edit
# A comment, so that it costs `import minimcp` nothing: minimcp reads it from its own source
# when a server first imports an SDK name. Each #| line: a public module of the SDKs and its
# public names (NAME=value: a constant; NAME=str: an alias of that builtin type); then the
# public members of the server classes and Context, as module:Class. The union over these pins:
#| pins: fastmcp 2.3.5 2.14.7 3.4.11 4.2.3; mcp 1.2.1 1.9.4 1.30.0 2.3.0
#| fastmcp: Client ClientGroup Context FastMCP FastMCPApp FastMCPDeprecationWarning Image Skill
#|   __version__='4.2.3' settings
#| fastmcp.apps: AppConfig FastMCPApp PrefabAppConfig ResourceCSP ResourcePermissions
#|   UI_EXTENSION_ID='io.modelcontextprotocol/ui' UI_MIME_TYPE='text/html;profile=mcp-app'
#|   app_config_to_meta_dict resolve_ui_mime_type
#| fastmcp.apps.app: FastMCPApp
#| fastmcp.apps.config: AppConfig PrefabAppConfig ResourceCSP ResourcePermissions
#|   UI_EXTENSION_ID='io.modelcontextprotocol/ui' app_config_to_meta_dict is_model_visible
#| fastmcp.cli:
#| fastmcp.cli.apps_dev: run_dev_apps
#| fastmcp.cli.apps_dev_log:
#| fastmcp.cli.apps_dev_security: DevSessionMiddleware SESSION_COOKIE='fastmcp_dev_session'
#| fastmcp.cli.auth:
#| fastmcp.cli.cimd: create_command validate_command
#| fastmcp.cli.claude: get_claude_config_path update_claude_config
#| fastmcp.cli.cli: apps dev inspect inspector install prepare run version with_argv
#| fastmcp.cli.client: call_command coerce_value discover_command format_tool_signature list_command
#|   parse_tool_arguments resolve_server_spec
#| fastmcp.cli.deploy:
#| fastmcp.cli.deploy.authentication: DeviceAuthorizationDeniedError DeviceAuthorizationError
#|   DeviceAuthorizationExpiredError authorize_device poll_device_authorization
#| fastmcp.cli.deploy.command: HostOption JsonOption login logout whoami
#| fastmcp.cli.deploy.configuration: ConfigurationStore HorizonConfiguration
#| fastmcp.cli.deploy.credentials: AuthState AuthenticationRequiredError CredentialSource CredentialStore
#|   ResolvedCredential resolve_credential revoke_and_clear_credential
#| fastmcp.cli.deploy.horizon_client: DEFAULT_HORIZON_API_ORIGIN='https://horizon.prefect.io'
#|   DEVICE_AUTH_CLIENT_ID='fastmcp-cli' DEVICE_AUTH_GRANT_TYPE='urn:ietf:params:oauth:grant-type:device_code'
#|   DeviceAccessToken DeviceAuthorization DeviceMetadata DeviceTokenError DeviceTokenPoll HorizonClient
#|   HorizonError HorizonOrganization HorizonResponseError HorizonUnauthorizedError HorizonUnavailableError
#|   HorizonUser normalize_api_origin
#| fastmcp.cli.deploy.output: CommandName ErrorCategory emit_device_challenge emit_environment_logout emit_error
#|   emit_identity emit_logout start_device_approval_status stop_device_approval_status
#| fastmcp.cli.deploy.state: StateFileError read_state remove_state state_lock write_state
#| fastmcp.cli.discovery: DiscoveredServer discover_servers resolve_name
#| fastmcp.cli.generate: generate_cli_command generate_cli_script generate_skill_content serialize_transport
#| fastmcp.cli.install: claude_code_command claude_desktop_command cursor_command gemini_cli_command
#|   goose_command mcp_json_command stdio_command
#| fastmcp.cli.install.claude_code: check_claude_code_available claude_code_command find_claude_command
#|   install_claude_code
#| fastmcp.cli.install.claude_desktop: claude_desktop_command get_claude_config_path install_claude_desktop
#| fastmcp.cli.install.cursor: cursor_command generate_cursor_deeplink install_cursor install_cursor_workspace
#|   open_deeplink
#| fastmcp.cli.install.gemini_cli: check_gemini_cli_available find_gemini_command gemini_cli_command
#|   install_gemini_cli
#| fastmcp.cli.install.goose: generate_goose_deeplink goose_command install_goose
#| fastmcp.cli.install.mcp_json: install_mcp_json mcp_json_command
#| fastmcp.cli.install.shared: open_deeplink parse_env_var process_common_args quote_windows_batch_argument
#|   run_cli_command validate_server_name windows_batch_command_line
#| fastmcp.cli.install.stdio: install_stdio stdio_command
#| fastmcp.cli.run: LogLevelType TransportType create_client_server create_mcp_config_server import_server is_url
#|   load_mcp_server_config parse_file_path run_command run_module_command run_v1_server_async run_with_reload
#| fastmcp.cli.tasks: check_distributed_backend worker
#| fastmcp.client: BearerAuth Client ClientCredentialsOAuthProvider ClientTransport FastMCPTransport
#|   NodeStdioTransport NpxStdioTransport OAuth PrivateKeyJWTOAuthProvider PythonStdioTransport SSETransport
#|   StdioTransport StreamableHttpTransport UvStdioTransport UvxStdioTransport WSTransport
#| fastmcp.client.auth: BearerAuth ClientCredentialsOAuthProvider OAuth PrivateKeyJWTOAuthProvider
#|   SignedJWTParameters static_assertion_provider
#| fastmcp.client.auth.bearer: BearerAuth
#| fastmcp.client.auth.client_credentials: ClientCredentialsOAuthProvider PrivateKeyJWTOAuthProvider
#|   SignedJWTParameters static_assertion_provider
#| fastmcp.client.auth.oauth: OAuth
#| fastmcp.client.base:
#| fastmcp.client.caching: DEFAULT_CACHE_COLLECTION='fastmcp_response_cache' KeyValueResponseCacheStore
#| fastmcp.client.client: Client ElicitationHandler LogHandler MessageHandler ProgressHandler RootsHandler
#|   RootsList SamplingHandler SessionKwargs
#| fastmcp.client.dependencies: get_http_headers
#| fastmcp.client.elicitation: ElicitRequestParams ElicitResult ElicitationHandler
#| fastmcp.client.extension_hooks: InternalClientExtensionFactory build_internal_client_extensions
#|   register_internal_client_extension_factory
#| fastmcp.client.group: ClientGroup ToolRoute
#| fastmcp.client.logging: LogHandler LogMessage MessageHandler create_log_callback default_log_handler
#| fastmcp.client.messages: Message MessageHandler MessageHandlerT
#| fastmcp.client.mixins: ClientPromptsMixin ClientResourcesMixin ClientSkillsMixin ClientTaskManagementMixin
#|   ClientToolsMixin
#| fastmcp.client.mixins.prompts: AUTO_PAGINATION_MAX_PAGES=250 ClientPromptsMixin PromptTaskResponseUnion
#| fastmcp.client.mixins.resources: AUTO_PAGINATION_MAX_PAGES=250 ClientResourcesMixin ResourceTaskResponseUnion
#| fastmcp.client.mixins.skills: AUTO_PAGINATION_MAX_PAGES=250 ClientSkillsMixin
#| fastmcp.client.mixins.task_management: ClientTaskManagementMixin
#| fastmcp.client.mixins.tools: AUTO_PAGINATION_MAX_PAGES=250 ClientToolsMixin ToolTaskResponseUnion
#| fastmcp.client.oauth_callback: CallbackResponse OAuthCallbackResult create_callback_html
#|   create_oauth_callback_server
#| fastmcp.client.progress: ProgressHandler default_progress_handler
#| fastmcp.client.roots: RootsHandler RootsList convert_roots_list create_roots_callback
#| fastmcp.client.sampling: MessageResult RequestContext SamplingHandler SamplingHandlerResult SamplingMessage
#|   SamplingParams create_sampling_callback
#| fastmcp.client.sampling.handlers:
#| fastmcp.client.tasks: PromptTask ResourceTask Task TaskNotificationHandler ToolTask
#| fastmcp.client.telemetry: client_span
#| fastmcp.client.transports: ClientTransport FastMCPStdioTransport FastMCPTransport NodeStdioTransport
#|   NpxStdioTransport PythonStdioTransport SSETransport SessionKwargs StdioTransport StreamableHttpTransport
#|   UvStdioTransport UvxStdioTransport WSTransport infer_transport
#| fastmcp.client.transports.base: ClientSessionKwargs ClientTransport SessionKwargs TransportOptions
#|   VersionAwareClientSession
#| fastmcp.client.transports.config: MCPConfigTransport
#| fastmcp.client.transports.http: StreamableHttpTransport
#| fastmcp.client.transports.inference: infer_transport
#| fastmcp.client.transports.memory: FastMCPTransport
#| fastmcp.client.transports.sse: SSETransport
#| fastmcp.client.transports.stdio: FastMCPStdioTransport NodeStdioTransport NpxStdioTransport
#|   PythonStdioTransport StdioTransport UvStdioTransport UvxStdioTransport
#| fastmcp.decorators: HasFastMCPMeta get_fastmcp_meta resolve_task_config
#| fastmcp.dependencies: CallArgument CurrentAccessToken CurrentContext CurrentDocket CurrentFastMCP
#|   CurrentHeaders CurrentRequest CurrentWorker CycleError Dependency Depends Progress ProgressLike Shared
#|   TokenClaim
#| fastmcp.exceptions: AuthorizationError ClientError DisabledError FastMCPDeprecationWarning FastMCPError
#|   InsufficientScopeError InvalidSignature MCPError McpError NotFoundError PromptError ResourceError
#|   ResourceSecurityError ToolError ValidationError to_mcp_error
#| fastmcp.experimental:
#| fastmcp.experimental.sampling:
#| fastmcp.experimental.transforms:
#| fastmcp.experimental.transforms.code_mode: CodeMode GetSchemas GetTags GetToolCatalog ListTools
#|   MontySandboxProvider SandboxProvider Search
#| fastmcp.experimental.transforms.jev_search: API_KEY_ENV='TYPESAFE_API_KEY' JevSearchTransform
#|   MAX_CHOICE_OPTIONS=255 SystemOneClient
#| fastmcp.low_level:
#| fastmcp.mcp_config: CanonicalMCPConfig CanonicalMCPServerTypes MCPConfig MCPServerTypes RemoteMCPServer
#|   StdioMCPServer TransformingMCPServerTypes TransformingRemoteMCPServer TransformingStdioMCPServer
#|   infer_transport_type_from_url update_config_file
#| fastmcp.prompts: FunctionPrompt Message Prompt PromptArgument PromptManager PromptMessage PromptResult prompt
#| fastmcp.prompts.base: Message Prompt PromptArgument PromptResult
#| fastmcp.prompts.function_prompt: DecoratedPrompt FunctionPrompt PromptMeta prompt
#| fastmcp.prompts.prompt: CONTENT_TYPES FunctionPrompt Message Prompt PromptArgument PromptResult
#|   SyncPromptResult
#| fastmcp.prompts.prompt_manager: PromptManager
#| fastmcp.resources: BinaryResource DirectoryResource FileResource FunctionResource HttpResource Resource
#|   ResourceContent ResourceManager ResourceResult ResourceSecurity ResourceTemplate TextResource resource
#| fastmcp.resources.base: Resource ResourceContent ResourceResult
#| fastmcp.resources.function_resource: DecoratedResource FunctionResource ResourceMeta resource
#| fastmcp.resources.resource: FunctionResource Resource
#| fastmcp.resources.resource_manager: ResourceManager
#| fastmcp.resources.security: ResourceSecurity
#| fastmcp.resources.template: FunctionResourceTemplate MyModel ResourceTemplate build_regex encode_literal
#|   expand_uri_template extract_exploded_query_params extract_query_params forward_uri match_uri_template
#|   template_param_key
#| fastmcp.resources.types: BinaryResource DirectoryResource FileResource FunctionResource HttpResource
#|   TextResource
#| fastmcp.server: Context FastMCP create_proxy
#| fastmcp.server.app:
#| fastmcp.server.apps:
#| fastmcp.server.auth: AccessToken AuthCheck AuthContext AuthProvider DebugTokenVerifier IdentityAssertion
#|   JWTVerifier MultiAuth OAuthProvider OAuthProxy OIDCProxy RemoteAuthProvider StaticTokenVerifier
#|   TokenVerificationError TokenVerifier require_roles require_scopes restrict_tag run_auth_checks
#| fastmcp.server.auth.auth: AccessToken AuthProvider
#|   JWT_BEARER_ASSERTION_TYPE='urn:ietf:params:oauth:client-assertion-type:jwt-bearer' MultiAuth OAuthProvider
#|   PrivateKeyJWTClientAuthenticator RemoteAuthProvider TokenHandler TokenVerificationError TokenVerifier
#| fastmcp.server.auth.authorization: AuthCheck AuthContext require_scopes restrict_tag run_auth_checks
#| fastmcp.server.auth.cimd: CIMDAssertionValidator CIMDClientManager CIMDDocument CIMDFetchError CIMDFetcher
#|   CIMDValidationError
#| fastmcp.server.auth.handlers:
#| fastmcp.server.auth.handlers.authorize: AuthorizationHandler create_unregistered_client_html
#| fastmcp.server.auth.identity_assertion: ID_JAG_GRANT_PROFILE='urn:ietf:params:oauth:grant-profile:id-jag'
#|   ID_JAG_TYP='oauth-id-jag+jwt' IdentityAssertion IdentityAssertionError IdentityAssertionValidator
#|   JWT_BEARER_GRANT_TYPE='urn:ietf:params:oauth:grant-type:jwt-bearer' normalize_resource_url
#|   server_url_has_query
#| fastmcp.server.auth.jwt_issuer: JWTIssuer KDF_ITERATIONS=1000000 KDF_ITERATIONS_TEST=10 derive_jwt_key
#| fastmcp.server.auth.middleware: RequireAuthMiddleware
#| fastmcp.server.auth.oauth_proxy: ClientCode DEFAULT_ACCESS_TOKEN_EXPIRY_NO_REFRESH_SECONDS=31536000
#|   DEFAULT_ACCESS_TOKEN_EXPIRY_SECONDS=3600 DEFAULT_AUTH_CODE_EXPIRY_SECONDS=300 HTTP_TIMEOUT_SECONDS=30
#|   JTIMapping OAuthProxy OAuthTransaction ProxyDCRClient RefreshTokenMetadata UpstreamTokenSet
#|   create_consent_html create_error_html
#| fastmcp.server.auth.oauth_proxy.consent: ConsentMixin
#| fastmcp.server.auth.oauth_proxy.models: ClientCode ConsentCSRFToken
#|   DEFAULT_ACCESS_TOKEN_EXPIRY_NO_REFRESH_SECONDS=31536000 DEFAULT_ACCESS_TOKEN_EXPIRY_SECONDS=3600
#|   DEFAULT_AUTH_CODE_EXPIRY_SECONDS=300 DEFAULT_REFRESH_TOKEN_EXPIRY_SECONDS=31536000 HTTP_TIMEOUT_SECONDS=30
#|   JTIMapping OAuthTransaction ProxyDCRClient RefreshTokenMetadata UpstreamTokenSet
#| fastmcp.server.auth.oauth_proxy.proxy: OAuthProxy
#| fastmcp.server.auth.oauth_proxy.revocation: RevocationProvider
#| fastmcp.server.auth.oauth_proxy.ui: create_consent_html create_error_html
#| fastmcp.server.auth.oauth_proxy.upstream: AsyncOAuth2Client OAuthError
#| fastmcp.server.auth.oidc_proxy: DEFAULT_OIDC_DISCOVERY_TIMEOUT_SECONDS=10 OIDCConfiguration OIDCProxy
#| fastmcp.server.auth.providers:
#| fastmcp.server.auth.providers.auth0: Auth0JWTVerifier Auth0MCPProvider Auth0Provider Auth0ProviderSettings
#| fastmcp.server.auth.providers.aws: AWSCognitoProvider AWSCognitoProviderSettings AWSCognitoTokenVerifier
#| fastmcp.server.auth.providers.azure: AzureJWTVerifier AzureProvider AzureProviderSettings EntraOBOToken
#| fastmcp.server.auth.providers.clerk: ClerkProvider ClerkTokenVerifier
#| fastmcp.server.auth.providers.debug: DebugTokenVerifier
#| fastmcp.server.auth.providers.descope: DescopeProvider DescopeProviderSettings
#| fastmcp.server.auth.providers.discord: DiscordProvider DiscordProviderSettings DiscordTokenVerifier
#| fastmcp.server.auth.providers.github: GitHubProvider GitHubProviderSettings GitHubTokenVerifier
#| fastmcp.server.auth.providers.google: GoogleProvider GoogleProviderSettings GoogleTokenVerifier
#| fastmcp.server.auth.providers.huggingface: HUGGINGFACE_AUTHORIZATION_ENDPOINT='https://huggingface.co/oauth/authorize'
#|   HUGGINGFACE_TOKEN_ENDPOINT='https://huggingface.co/oauth/token'
#|   HUGGINGFACE_USERINFO_ENDPOINT='https://huggingface.co/oauth/userinfo'
#|   HUGGINGFACE_WHOAMI_ENDPOINT='https://huggingface.co/api/whoami-v2' HuggingFaceProvider
#|   HuggingFaceTokenVerifier
#| fastmcp.server.auth.providers.in_memory: DEFAULT_ACCESS_TOKEN_EXPIRY_SECONDS=3600
#|   DEFAULT_AUTH_CODE_EXPIRY_SECONDS=300 InMemoryOAuthProvider
#| fastmcp.server.auth.providers.introspection: ClientAuthMethod IntrospectionTokenVerifier
#|   IntrospectionTokenVerifierSettings
#| fastmcp.server.auth.providers.jwt: JWKData JWKKeyData JWKSData JWTVerifier JWTVerifierSettings RSAKeyPair
#|   StaticTokenVerifier
#| fastmcp.server.auth.providers.keycloak: KeycloakAuthProvider
#| fastmcp.server.auth.providers.oci: OCIProvider OCIProviderSettings
#| fastmcp.server.auth.providers.propelauth: PropelAuthProvider PropelAuthTokenIntrospectionOverrides
#| fastmcp.server.auth.providers.scalekit: ScalekitProvider ScalekitProviderSettings
#| fastmcp.server.auth.providers.supabase: SupabaseProvider SupabaseProviderSettings
#| fastmcp.server.auth.providers.workos: AuthKitProvider AuthKitProviderSettings WorkOSProvider
#|   WorkOSProviderSettings WorkOSTokenVerifier
#| fastmcp.server.auth.redirect_validation: add_query_params build_client_redirect is_loopback_host
#|   is_redirect_uri_allowed_for_application_type matches_allowed_pattern replace_query_param
#|   validate_redirect_uri
#| fastmcp.server.auth.ssrf: SSRFError SSRFFetchError SSRFFetchResponse ValidatedURL format_ip_for_url
#|   is_ip_allowed resolve_hostname ssrf_safe_fetch ssrf_safe_fetch_response validate_url
#| fastmcp.server.caching: CacheScope build_cache_hints
#| fastmcp.server.completions: CompletionHandler CompletionReference CompletionValues MAX_COMPLETION_VALUES=100
#|   normalize_completion
#| fastmcp.server.context: Context LogData ToolChoiceOption TransportType reset_transport set_context
#|   set_transport
#| fastmcp.server.dependencies: AccessToken CurrentAccessToken CurrentContext CurrentDocket CurrentFastMCP
#|   CurrentHeaders CurrentRequest CurrentWorker FastMCPRequestContext P Progress TaskContextInfo
#|   TaskContextSnapshot TokenClaim bind_request_context extract_version_spec fastmcp_request_ctx
#|   get_access_token get_context get_http_headers get_http_request get_server get_session get_task_context
#|   get_task_session is_docket_available register_task_server register_task_session require_docket
#|   resolve_dependencies transform_context_annotations without_injected_parameters
#| fastmcp.server.elicitation: AcceptedElicitation CancelledElicitation DeclinedElicitation ElicitConfig
#|   ScalarElicitationType get_elicitation_schema handle_elicit_accept parse_elicit_response_type
#| fastmcp.server.event_store: EventEntry EventStore SessionScopedEventStore StreamEventList
#| fastmcp.server.extensions: MethodBinding ServerExtension read_client_extension_settings
#| fastmcp.server.http: FastMCPStreamableHTTPSessionManager HostOriginGuardMiddleware HostOriginProtection
#|   HostOriginProtectionMode RequestContextMiddleware StarletteWithLifespan StreamableHTTPASGIApp
#|   create_base_app create_sse_app create_streamable_http_app set_http_request setup_auth_middleware_and_routes
#| fastmcp.server.lifespan: ComposedLifespan ContextManagerLifespan Lifespan LifespanContextManagerFn LifespanFn
#|   lifespan
#| fastmcp.server.low_level: FastMCPServerMiddleware LowLevelServer MiddlewareServerSession
#|   client_supports_extension
#| fastmcp.server.middleware: AuthMiddleware CallNext Middleware MiddlewareContext PingMiddleware
#| fastmcp.server.middleware.authorization: AuthMiddleware
#| fastmcp.server.middleware.caching: ANONYMOUS_AUTH_KEY='__anonymous__' CachableMessage CachablePromptResult
#|   CachableReadResourceContents CachableResourceContent CachableResourceResult CachableToolResult
#|   CacheableMessage CacheablePromptResult CacheableResourceContent CacheableResourceResult CacheableToolResult
#|   CallToolSettings DEFAULT_VERSION_CACHE_KEY='__default__' FIVE_MINUTES_IN_SECONDS=300 GLOBAL_KEY='__global__'
#|   GetPromptSettings ListPromptsSettings ListResourcesSettings ListToolsSettings ONE_HOUR_IN_SECONDS=3600
#|   ONE_MB_IN_BYTES=1048576 ReadResourceSettings ResponseCachingMiddleware ResponseCachingStatistics
#|   SharedMethodSettings
#| fastmcp.server.middleware.dereference: DereferenceRefsMiddleware
#| fastmcp.server.middleware.error_handling: ErrorHandlingMiddleware RetryMiddleware
#| fastmcp.server.middleware.logging: BaseLoggingMiddleware LoggingMiddleware StructuredLoggingMiddleware
#|   default_serializer
#| fastmcp.server.middleware.middleware: CallNext Middleware MiddlewareContext
#| fastmcp.server.middleware.ping: PingMiddleware
#| fastmcp.server.middleware.rate_limiting: RateLimitError RateLimitingMiddleware SlidingWindowRateLimiter
#|   SlidingWindowRateLimitingMiddleware TokenBucketRateLimiter
#| fastmcp.server.middleware.response_limiting: ResponseLimitingMiddleware
#| fastmcp.server.middleware.timing: DetailedTimingMiddleware TimingMiddleware
#| fastmcp.server.middleware.tool_injection: PromptToolMiddleware ResourceToolMiddleware ToolInjectionMiddleware
#|   get_prompt get_prompt_tool list_prompts list_prompts_tool list_resources list_resources_tool read_resource
#|   read_resource_tool
#| fastmcp.server.mixins: LifespanMixin MCPOperationsMixin TransportMixin
#| fastmcp.server.mixins.extensions: ExtensionsMixin
#| fastmcp.server.mixins.lifespan: LifespanMixin
#| fastmcp.server.mixins.mcp_operations: MCPOperationsMixin
#| fastmcp.server.mixins.transport: TransportMixin
#| fastmcp.server.openapi: ComponentFn DEFAULT_ROUTE_MAPPINGS FastMCPOpenAPI HttpMethod MCPType OpenAPIProvider
#|   OpenAPIResource OpenAPIResourceTemplate OpenAPITool RouteMap RouteMapFn RouteType
#| fastmcp.server.openapi.components: OpenAPIResource OpenAPIResourceTemplate OpenAPITool
#| fastmcp.server.openapi.routing: ComponentFn DEFAULT_ROUTE_MAPPINGS MCPType RouteMap RouteMapFn
#| fastmcp.server.openapi.server: FastMCPOpenAPI
#| fastmcp.server.providers: AggregateProvider ClaudeSkillsProvider FastMCPProvider FileSystemProvider
#|   LocalProvider OpenAPIProvider Provider ProxyProvider SkillProvider SkillsDirectoryProvider SkillsProvider
#| fastmcp.server.providers.addressing: HASH_LENGTH=12 TOOL_HASH_META_KEY='tool_hash' hash_tool
#|   hashed_backend_name hashed_resource_uri is_app_tool_with_identity parse_hashed_backend_name
#|   parse_hashed_resource_uri tool_identity
#| fastmcp.server.providers.aggregate: AggregateProvider ProviderErrorStrategy
#| fastmcp.server.providers.base: Provider hashed_lookup_target
#| fastmcp.server.providers.fastmcp_provider: FastMCPProvider FastMCPProviderPrompt FastMCPProviderResource
#|   FastMCPProviderResourceTemplate FastMCPProviderTool
#| fastmcp.server.providers.filesystem: FileSystemProvider
#| fastmcp.server.providers.filesystem_discovery: DiscoveryResult discover_and_import discover_files
#|   extract_components import_module_from_file
#| fastmcp.server.providers.local_provider: LocalProvider
#| fastmcp.server.providers.local_provider.decorators: PromptDecoratorMixin ResourceDecoratorMixin
#|   ToolDecoratorMixin
#| fastmcp.server.providers.local_provider.decorators.prompts: PromptDecoratorMixin
#| fastmcp.server.providers.local_provider.decorators.resources: ResourceDecoratorMixin
#| fastmcp.server.providers.local_provider.decorators.tools: DuplicateBehavior
#|   PREFAB_RENDERER_URI='ui://prefab/renderer.html' ToolDecoratorMixin
#| fastmcp.server.providers.local_provider.local_provider: DuplicateBehavior LocalProvider
#| fastmcp.server.providers.openapi: ComponentFn MCPType OpenAPIProvider OpenAPIResource OpenAPIResourceTemplate
#|   OpenAPITool RouteMap RouteMapFn
#| fastmcp.server.providers.openapi.components: OpenAPIResource OpenAPIResourceTemplate OpenAPITool
#| fastmcp.server.providers.openapi.provider: OpenAPIProvider
#| fastmcp.server.providers.openapi.routing: ComponentFn MCPType RouteMap RouteMapFn
#| fastmcp.server.providers.prefab_payload: IdentityResolver annotate_payload_identities payload_has_identities
#|   rewrite_payload_tool_names
#| fastmcp.server.providers.prefab_synthesis: PREFAB_PLACEHOLDER_URI='ui://prefab/renderer.html'
#|   rewrite_tool_meta_for_wire synthesize_prefab_resource_by_uri synthesize_prefab_resources
#| fastmcp.server.providers.proxy: ClientFactoryT FastMCPProxy PROXY_TRANSPORT_OPTIONS ProxyClient ProxyIdentity
#|   ProxyInitializeMiddleware ProxyMetadataMiddleware ProxyPrompt ProxyProvider ProxyResource ProxyTemplate
#|   ProxyTool StatefulProxyClient default_proxy_elicitation_handler default_proxy_log_handler
#|   default_proxy_message_handler default_proxy_progress_handler default_proxy_roots_handler
#|   default_proxy_sampling_handler
#| fastmcp.server.providers.skills: ClaudeSkillsProvider CodexSkillsProvider CopilotSkillsProvider
#|   CursorSkillsProvider GeminiSkillsProvider GooseSkillsProvider OpenCodeSkillsProvider SkillProvider
#|   SkillsDirectoryProvider SkillsProvider VSCodeSkillsProvider
#| fastmcp.server.providers.skills.claude_provider: ClaudeSkillsProvider
#| fastmcp.server.providers.skills.directory_provider: SkillsDirectoryProvider
#| fastmcp.server.providers.skills.skill_provider: SkillFileResource SkillFileTemplate SkillProvider
#|   SkillResource
#| fastmcp.server.providers.skills.vendor_providers: CodexSkillsProvider CopilotSkillsProvider
#|   CursorSkillsProvider GeminiSkillsProvider GooseSkillsProvider OpenCodeSkillsProvider VSCodeSkillsProvider
#| fastmcp.server.providers.wrapped_provider:
#| fastmcp.server.proxy: ClientFactoryT FastMCPProxy ProxyClient ProxyManagerMixin ProxyPrompt ProxyPromptManager
#|   ProxyProvider ProxyResource ProxyResourceManager ProxyTemplate ProxyTool ProxyToolManager
#|   StatefulProxyClient default_proxy_roots_handler
#| fastmcp.server.sampling: SampleStep SamplingResult SamplingTool
#| fastmcp.server.sampling.run: SampleStep SamplingResult ToolChoiceOption call_sampling_handler
#|   create_final_response_tool determine_handler_mode execute_tools extract_tool_calls prepare_messages
#|   prepare_tools sample_impl sample_step_impl
#| fastmcp.server.sampling.sampling_tool: SamplingTool
#| fastmcp.server.server: DuplicateBehavior FastMCP LifespanCallable MountedServer StateValue Transport
#|   add_resource_prefix create_proxy default_lifespan has_resource_prefix remove_resource_prefix
#| fastmcp.server.session_scoped_event_store: SessionScopedEventStore
#| fastmcp.server.sessions: CurrentSession InvalidSession OptionalCurrentSession Session SessionAuthError
#|   SessionId SessionProvider UserSession create_session current_principal end_session
#|   session_id_parameter_names session_storage_key
#| fastmcp.server.tasks: TaskConfig TaskMeta TaskMode build_task_key elicit_for_task ensure_subscriber_running
#|   get_client_task_id_from_key get_task_capabilities handle_task_input parse_task_key push_notification
#|   relay_elicitation stop_subscriber
#| fastmcp.server.tasks.capabilities: get_task_capabilities
#| fastmcp.server.tasks.config: DEFAULT_POLL_INTERVAL DEFAULT_POLL_INTERVAL_MS=5000 DEFAULT_TTL_MS=60000
#|   TaskConfig TaskMeta TaskMode
#| fastmcp.server.tasks.context: TaskContextInfo TaskContextSnapshot TaskKey get_task_context get_task_scope
#|   get_task_server get_task_session get_task_session_id register_task_server register_task_session
#|   restore_task_snapshot
#| fastmcp.server.tasks.converters: convert_prompt_result convert_resource_result convert_tool_result
#| fastmcp.server.tasks.elicitation: ELICIT_TTL_SECONDS=3600 elicit_for_task handle_task_input relay_elicitation
#| fastmcp.server.tasks.handlers: TASK_MAPPING_TTL_BUFFER_SECONDS=900 handle_prompt_as_task
#|   handle_resource_as_task handle_tool_as_task submit_to_docket
#| fastmcp.server.tasks.keys: TaskKeyParts build_task_key get_client_task_id_from_key parse_task_key
#|   task_redis_prefix
#| fastmcp.server.tasks.notifications: MAX_DELIVERY_ATTEMPTS=3
#|   NOTIFICATION_ACTIVE_KEY='fastmcp:notifications:{session_id}:active'
#|   NOTIFICATION_QUEUE_KEY='fastmcp:notifications:{session_id}' NOTIFICATION_TTL_SECONDS=300
#|   SUBSCRIBER_TIMEOUT_SECONDS=30 ensure_subscriber_running get_subscriber_count notification_subscriber_loop
#|   push_notification stop_subscriber
#| fastmcp.server.tasks.protocol: tasks_cancel_handler tasks_get_handler tasks_list_handler tasks_result_handler
#| fastmcp.server.tasks.routing: TaskType check_background_task
#| fastmcp.server.tasks.subscriptions: subscribe_to_task_updates
#| fastmcp.server.telemetry: SEAM_SPAN_MARKER='fastmcp.span.seam' delegate_span get_auth_span_attributes
#|   get_protocol_span_attributes get_session_span_attributes record_span_exception seam_span server_span
#| fastmcp.server.transforms: Namespace PromptsAsTools ResourcesAsTools ToolTransform Transform VersionFilter
#|   VersionSpec Visibility is_enabled
#| fastmcp.server.transforms.catalog: CatalogTransform
#| fastmcp.server.transforms.namespace: Namespace
#| fastmcp.server.transforms.prompts_as_tools: PromptsAsTools
#| fastmcp.server.transforms.resources_as_tools: ResourcesAsTools
#| fastmcp.server.transforms.search: BM25SearchTransform RegexSearchTransform SearchResultSerializer
#|   serialize_tools_for_output_json serialize_tools_for_output_markdown
#| fastmcp.server.transforms.search.base: BaseSearchTransform SearchResultSerializer
#|   serialize_tools_for_output_json serialize_tools_for_output_markdown
#| fastmcp.server.transforms.search.bm25: BM25SearchTransform
#| fastmcp.server.transforms.search.regex: RegexSearchTransform
#| fastmcp.server.transforms.tool_transform: ToolTransform
#| fastmcp.server.transforms.version_filter: VersionFilter
#| fastmcp.server.transforms.visibility: Visibility apply_session_transforms create_visibility_transforms
#|   disable_components enable_components get_session_transforms get_visibility_rules is_enabled reset_visibility
#|   save_visibility_rules
#| fastmcp.settings: DocketSettings DuplicateBehavior ENV_FILE='.env' ExperimentalSettings LOG_LEVEL
#|   MCP_LOG_LEVEL ServerSettings Settings TELEMETRY_MODE TEN_MB_IN_BYTES=10485760 settings
#| fastmcp.skills: GetSkillResult ListSkillsResult MCPSkill Skill SkillFile SkillFrontmatter SkillManifest
#|   SkillResource SkillsClientExtension
#| fastmcp.skills.client: SkillsClientExtension
#| fastmcp.skills.extension: SkillsExtension
#| fastmcp.skills.models: GetSkillParams GetSkillRequest GetSkillResult ListSkillsParams ListSkillsRequest
#|   ListSkillsResult MCPSkill SkillFrontmatter SkillResource
#| fastmcp.skills.provider: SkillCatalog SkillCatalogProvider SkillFileResource SkillManifestProvider
#|   SkillManifestResource SkillsDirectoryProvider
#| fastmcp.skills.skill: Skill SkillFile SkillManifest
#| fastmcp.telemetry: INSTRUMENTATION_NAME='fastmcp' TRACE_PARENT_KEY='traceparent' TRACE_STATE_KEY='tracestate'
#|   error_span_attributes extract_trace_context get_tracer inject_trace_context native_spans_enabled
#|   record_span_error restore_dropped_attributes suppress_fastmcp_telemetry telemetry_mode
#| fastmcp.tools: FunctionTool InputRequiredToolResult Tool ToolManager ToolResult forward forward_raw tool
#| fastmcp.tools.base: InputRequiredToolResult Tool ToolResult
#| fastmcp.tools.function_parsing: ParsedFunction
#| fastmcp.tools.function_tool: DecoratedTool FunctionTool ToolMeta tool
#| fastmcp.tools.tool: FunctionTool ParsedFunction Tool ToolResult ToolResultSerializerType default_serializer
#| fastmcp.tools.tool_manager: ToolManager
#| fastmcp.tools.tool_transform: ArgTransform ArgTransformConfig ToolTransformConfig TransformedTool
#|   apply_transformations_to_tools forward forward_raw
#| fastmcp.types: Textarea
#| fastmcp.utilities:
#| fastmcp.utilities.asgi_transport: StreamingASGITransport run_asgi_lifespan
#| fastmcp.utilities.async_utils: call_sync_fn_in_threadpool gather is_coroutine_function
#| fastmcp.utilities.auth: decode_jwt_header decode_jwt_payload parse_scopes
#| fastmcp.utilities.authorization: AuthCheck AuthContext require_roles require_scopes restrict_tag
#|   run_auth_checks run_auth_checks_with_shortfall scope_requirements
#| fastmcp.utilities.cache: TimedCache
#| fastmcp.utilities.cli: is_already_in_uv_subprocess load_and_merge_config log_server_banner
#| fastmcp.utilities.components: FastMCPComponent FastMCPMeta MirroredComponent get_fastmcp_metadata
#|   public_result_meta
#| fastmcp.utilities.decorators: DecoratedFunction P
#| fastmcp.utilities.docstring_parsing: ParsedDocstring parse_docstring
#| fastmcp.utilities.exceptions: get_catch_handlers get_http_status_code is_http_status_error is_request_error
#|   is_timeout_error iter_exc
#| fastmcp.utilities.http: find_available_port
#| fastmcp.utilities.inspect: FastMCPInfo InspectFormat PromptInfo ResourceInfo TemplateInfo ToolInfo
#|   format_fastmcp_info format_info format_mcp_info inspect_fastmcp inspect_fastmcp_v1 inspect_fastmcp_v2
#| fastmcp.utilities.json_schema: compress_schema dereference_refs is_object_schema ref_target_name replace_refs
#|   require_discriminator_property resolve_root_ref
#| fastmcp.utilities.json_schema_type: JSONSchema json_schema_to_type
#| fastmcp.utilities.lifespan: combine_lifespans
#| fastmcp.utilities.logging: configure_logging get_logger temporary_log_level
#| fastmcp.utilities.mcp_config: mcp_config_to_servers_and_transports mcp_server_type_to_servers_and_transports
#| fastmcp.utilities.mcp_server_config: Deployment Environment FileSystemSource MCPServerConfig Source
#|   UVEnvironment generate_schema
#| fastmcp.utilities.mcp_server_config.v1:
#| fastmcp.utilities.mcp_server_config.v1.environments: Environment UVEnvironment
#| fastmcp.utilities.mcp_server_config.v1.environments.base: Environment
#| fastmcp.utilities.mcp_server_config.v1.environments.uv: UVEnvironment
#| fastmcp.utilities.mcp_server_config.v1.mcp_server_config: Deployment EnvironmentType
#|   FASTMCP_JSON_SCHEMA='https://gofastmcp.com/public/schemas/fastmcp.json/v1.json' MCPServerConfig SourceType
#|   generate_schema
#| fastmcp.utilities.mcp_server_config.v1.sources:
#| fastmcp.utilities.mcp_server_config.v1.sources.base: Source
#| fastmcp.utilities.mcp_server_config.v1.sources.filesystem: FileSystemSource
#| fastmcp.utilities.mime: UI_MIME_TYPE='text/html;profile=mcp-app' resolve_ui_mime_type
#| fastmcp.utilities.openapi: HTTPRoute HttpMethod JsonSchema ParameterInfo ParameterLocation RequestBodyInfo
#|   ResponseInfo clean_schema_for_display convert_openapi_schema_to_json_schema convert_schema_definitions
#|   extract_output_schema_from_responses format_array_parameter format_deep_object_parameter
#|   format_description_with_responses format_json_for_description format_simple_description
#|   generate_example_from_schema parse_openapi_to_http_routes
#| fastmcp.utilities.openapi.director: RequestDirector
#| fastmcp.utilities.openapi.formatters: format_array_parameter format_deep_object_parameter
#|   format_description_with_responses format_json_for_description format_simple_description
#|   generate_example_from_schema
#| fastmcp.utilities.openapi.json_schema_converter: convert_openapi_schema_to_json_schema
#|   convert_schema_definitions resolve_definition_pointer
#| fastmcp.utilities.openapi.models: HTTPRoute HttpMethod JsonSchema ParameterInfo ParameterLocation
#|   RequestBodyInfo ResponseInfo
#| fastmcp.utilities.openapi.parser: OpenAPIParser parse_openapi_to_http_routes
#| fastmcp.utilities.openapi.schemas: clean_schema_for_display extract_output_schema_from_responses
#| fastmcp.utilities.pagination: CursorState paginate_sequence
#| fastmcp.utilities.prefab: is_prefab_app is_prefab_component is_prefab_type prefab_app_from_component
#|   prefab_available
#| fastmcp.utilities.skills: SkillFile SkillManifest SkillSummary download_skill get_skill_manifest list_skills
#|   sync_skills
#| fastmcp.utilities.tasks: DEFAULT_POLL_INTERVAL_MS=5000 DEFAULT_TTL_MS=60000
#|   TASKS_EXTENSION_ID='io.modelcontextprotocol/tasks' TaskConfig TaskMeta TaskMode
#| fastmcp.utilities.tests: ASGIServer HeadlessOAuth asgi_client asgi_server run_server_async
#|   run_server_in_process temporary_settings
#| fastmcp.utilities.timeout: normalize_timeout_to_seconds normalize_timeout_to_timedelta
#| fastmcp.utilities.token_cache: DEFAULT_MAX_CACHE_SIZE=10000 TokenCache
#| fastmcp.utilities.types: AnyFunction Audio ContextSamplingFallbackProtocol FastMCPBaseModel File Image
#|   create_function_without_params find_kwarg_by_type get_cached_typeadapter get_fn_name get_function_type_hints
#|   is_class_member_of_type issubclass_safe replace_type
#| fastmcp.utilities.ui: FASTMCP_LOGO_URL='https://gofastmcp.com/assets/brand/blue-logo.png' create_button_group
#|   create_detail_box create_info_box create_logo create_page create_secure_html_response create_status_message
#| fastmcp.utilities.version_check: CACHE_TTL_SECONDS=43200 PYPI_URL='https://pypi.org/pypi/fastmcp/json'
#|   check_for_newer_version get_latest_version
#| fastmcp.utilities.versions: VersionKey VersionSpec compare_versions dedupe_with_versions is_version_greater
#|   max_version min_version parse_version_key version_sort_key
#| mcp: CallToolRequest Client ClientCapabilities ClientNotification ClientRequest ClientResult ClientSession
#|   ClientSessionGroup CompleteRequest CreateMessageRequest CreateMessageResult CreateMessageResultWithTools
#|   ErrorData GetPromptRequest GetPromptResult Implementation IncludeContext InitializeRequest InitializeResult
#|   InitializedNotification InputRequiredRoundsExceededError InvalidUriTemplate JSONRPCError JSONRPCRequest
#|   JSONRPCResponse ListPromptsRequest ListPromptsResult ListResourcesRequest ListResourcesResult
#|   ListToolsResult LoggingLevel LoggingMessageNotification MCPDeprecationWarning MCPError McpError Notification
#|   PingRequest ProgressNotification PromptsCapability ReadResourceRequest ReadResourceResult Resource
#|   ResourceUpdatedNotification ResourcesCapability RootsCapability SamplingCapability SamplingContent
#|   SamplingContextCapability SamplingMessage SamplingMessageContentBlock SamplingRole SamplingToolsCapability
#|   ServerCapabilities ServerNotification ServerRequest ServerResult ServerSession SetLevelRequest
#|   StdioServerParameters StopReason SubscribeRequest Tool ToolChoice ToolResultContent ToolUseContent
#|   ToolsCapability UnsubscribeRequest UriTemplate UrlElicitationRequiredError stdio_client stdio_server
#| mcp.client: CacheConfig CacheEntry CacheKey CacheMode ClaimContext Client ClientExtension ClientRequestContext
#|   ClientSession InMemoryResponseCacheStore IncomingMessage InputRequiredRoundsExceededError
#|   NotificationBinding ResponseCacheStore ResultClaim Transport UnexpectedClaimedResult advertise
#| mcp.client.auth: AuthorizationCodeResult OAuthClientProvider OAuthFlowError OAuthRegistrationError
#|   OAuthTokenError PKCEParameters TokenStorage
#| mcp.client.auth.exceptions: OAuthFlowError OAuthRegistrationError OAuthTokenError
#| mcp.client.auth.extensions:
#| mcp.client.auth.extensions.client_credentials: ClientCredentialsOAuthProvider JWTParameters
#|   PrivateKeyJWTOAuthProvider RFC7523OAuthClientProvider SignedJWTParameters static_assertion_provider
#| mcp.client.auth.extensions.identity_assertion: IdentityAssertionOAuthProvider
#| mcp.client.auth.oauth2: OAuthClientProvider OAuthContext PKCEParameters TokenStorage check_registration_usable
#| mcp.client.auth.utils: build_oauth_authorization_server_metadata_discovery_urls
#|   build_protected_resource_metadata_discovery_urls create_client_info_from_metadata_url
#|   create_client_registration_request create_oauth_metadata_request credentials_match_issuer
#|   extract_field_from_www_auth extract_resource_metadata_from_www_auth extract_scope_from_www_auth
#|   get_client_metadata_scopes handle_auth_metadata_response handle_protected_resource_response
#|   handle_registration_response handle_token_response_scopes is_valid_client_metadata_url issuers_match
#|   should_use_client_metadata_url union_scopes validate_authorization_response_iss validate_metadata_issuer
#| mcp.client.caching: CacheConfig CacheEntry CacheKey CacheMode InMemoryResponseCacheStore MAX_TTL_MS=86400000
#|   ResponseCacheStore
#| mcp.client.client: Client ConnectMode
#| mcp.client.context: ClientRequestContext
#| mcp.client.experimental: ExperimentalClientFeatures
#| mcp.client.experimental.task_handlers: CancelTaskHandlerFnT ExperimentalTaskHandlers GetTaskHandlerFnT
#|   GetTaskResultHandlerFnT ListTasksHandlerFnT TaskAugmentedElicitationFnT TaskAugmentedSamplingFnT
#|   default_cancel_task_handler default_get_task_handler default_get_task_result_handler
#|   default_list_tasks_handler default_task_augmented_elicitation default_task_augmented_elicitation_callback
#|   default_task_augmented_sampling default_task_augmented_sampling_callback
#| mcp.client.experimental.tasks: ExperimentalClientFeatures
#| mcp.client.extension: ClaimContext ClientExtension NotificationBinding ResultClaim UnexpectedClaimedResult
#|   advertise
#| mcp.client.session: ClientRequestContext ClientSession DEFAULT_CLIENT_INFO ElicitationFnT IncomingMessage
#|   ListRootsFnT LoggingFnT MessageHandlerFnT SamplingFnT
#| mcp.client.session_group: ClientSessionGroup ClientSessionParameters ServerParameters SseServerParameters
#|   StreamableHttpParameters
#| mcp.client.sse: remove_request_params sse_client
#| mcp.client.stdio: FallbackProcess SessionMessage StdioServerParameters create_windows_process
#|   get_default_environment get_windows_executable_command stdio_client terminate_posix_process_tree
#|   terminate_windows_process terminate_windows_process_tree
#| mcp.client.stdio.win32: create_windows_process get_windows_executable_command terminate_windows_process
#| mcp.client.streamable_http: ACCEPT='accept' CONTENT_TYPE='content-type' DEFAULT_MAX_SSE_EVENT_SIZE=1048576
#|   DEFAULT_RECONNECTION_DELAY_MS=1000 GetSessionIdCallback JSON='application/json'
#|   LAST_EVENT_ID='last-event-id' MAX_RECONNECTION_ATTEMPTS=2 MCP_PROTOCOL_VERSION='mcp-protocol-version'
#|   MCP_SESSION_ID='mcp-session-id' RequestContext ResumptionError SSE='text/event-stream' SessionMessageOrError
#|   StreamReader StreamWriter StreamableHTTPError StreamableHTTPTransport streamable_http_client
#|   streamablehttp_client
#| mcp.client.subscriptions: ListenNotSupportedError OnEvent PromptsListChanged ResourceUpdated
#|   ResourcesListChanged ServerEvent Subscription SubscriptionLost ToolsListChanged listen
#| mcp.os:
#| mcp.os.posix:
#| mcp.os.posix.utilities: terminate_posix_process_tree
#| mcp.os.win32:
#| mcp.os.win32.utilities: FallbackProcess JobHandle=int ServerProcess close_process_job create_windows_process
#|   get_windows_executable_command rebind_std_handle_to_fd terminate_windows_process
#|   terminate_windows_process_tree
#| mcp.server: CacheHint FastMCP InitializationOptions MCPServer NotificationOptions Server ServerRequestContext
#| mcp.server.apps: APP_MIME_TYPE='text/html;profile=mcp-app' Apps EXTENSION_ID='io.modelcontextprotocol/ui'
#|   ResourceCsp ResourcePermissions Visibility client_supports_apps
#| mcp.server.auth:
#| mcp.server.auth.errors: stringify_pydantic_error
#| mcp.server.auth.handlers:
#| mcp.server.auth.handlers.authorize: AnyUrlModel AuthorizationErrorResponse AuthorizationHandler
#|   AuthorizationRequest best_effort_extract_string
#| mcp.server.auth.handlers.metadata: MetadataHandler ProtectedResourceMetadataHandler
#| mcp.server.auth.handlers.register: RegistrationErrorResponse RegistrationHandler RegistrationRequest
#| mcp.server.auth.handlers.revoke: RevocationErrorResponse RevocationHandler RevocationRequest
#| mcp.server.auth.handlers.token: AuthorizationCodeRequest JwtBearerRequest RefreshTokenRequest
#|   TokenErrorResponse TokenHandler TokenRequest TokenSuccessResponse
#| mcp.server.auth.json_response: PydanticJSONResponse
#| mcp.server.auth.middleware:
#| mcp.server.auth.middleware.auth_context: AuthContextMiddleware get_access_token
#| mcp.server.auth.middleware.bearer_auth: AuthenticatedUser AuthorizationContext BearerAuthBackend
#|   RequireAuthMiddleware authorization_context
#| mcp.server.auth.middleware.client_auth: AuthenticationError ClientAuthenticator
#| mcp.server.auth.provider: AccessToken AuthorizationCode AuthorizationErrorCode AuthorizationParams
#|   AuthorizeError IdentityAssertionParams OAuthAuthorizationServerProvider ProviderTokenVerifier RefreshToken
#|   RegistrationError RegistrationErrorCode TokenError TokenErrorCode TokenVerifier construct_redirect_uri
#|   principal_components
#| mcp.server.auth.routes: AUTHORIZATION_PATH='/authorize'
#|   ID_JAG_GRANT_PROFILE='urn:ietf:params:oauth:grant-profile:id-jag' REGISTRATION_PATH='/register'
#|   REVOCATION_PATH='/revoke' TOKEN_PATH='/token' build_metadata build_resource_metadata_url cors_middleware
#|   create_auth_routes create_protected_resource_routes validate_issuer_url
#| mcp.server.auth.settings: AuthSettings ClientRegistrationOptions RevocationOptions
#| mcp.server.caching: CACHEABLE_METHODS CacheHint CacheableMethod apply_cache_hint validate_cache_hints
#| mcp.server.connection: Connection
#| mcp.server.context: CallNext Context HandlerResult ServerMiddleware ServerRequestContext
#| mcp.server.elicitation: AcceptedElicitation AcceptedUrlElicitation CancelledElicitation DeclinedElicitation
#|   ElicitationResult UrlElicitationResult elicit_url elicit_with_validation render_elicitation_schema
#| mcp.server.experimental:
#| mcp.server.experimental.request_context: Experimental
#| mcp.server.experimental.session_features: ExperimentalServerSessionFeatures
#| mcp.server.experimental.task_context: ServerTaskContext
#| mcp.server.experimental.task_result_handler: TaskResultHandler
#| mcp.server.experimental.task_scope: new_session_scope scoped_task_id session_scope_of task_in_session_scope
#|   task_listable_in_session_scope
#| mcp.server.experimental.task_support: TaskSupport
#| mcp.server.extension: Extension MethodBinding RequestHandler ResourceBinding ToolBinding
#|   compose_tool_call_handler
#| mcp.server.fastmcp: Audio Context FastMCP Icon Image __version__='1.30.0'
#| mcp.server.fastmcp.exceptions: FastMCPError InvalidSignature ResourceError ToolError ValidationError
#| mcp.server.fastmcp.prompts: Prompt PromptManager
#| mcp.server.fastmcp.prompts.base: AssistantMessage CONTENT_TYPES Message Prompt PromptArgument PromptResult
#|   SyncPromptResult UserMessage
#| mcp.server.fastmcp.prompts.manager: PromptManager
#| mcp.server.fastmcp.prompts.prompt_manager: PromptManager
#| mcp.server.fastmcp.resources: BinaryResource DirectoryResource FileResource FunctionResource HttpResource
#|   Resource ResourceManager ResourceTemplate TextResource
#| mcp.server.fastmcp.resources.base: Resource
#| mcp.server.fastmcp.resources.resource_manager: ResourceManager
#| mcp.server.fastmcp.resources.templates: ResourceTemplate
#| mcp.server.fastmcp.resources.types: BinaryResource DirectoryResource FileResource FunctionResource
#|   HttpResource TextResource
#| mcp.server.fastmcp.server: Context FastMCP Icon Settings StreamableHTTPASGIApp TransportSecuritySettings
#|   lifespan_wrapper
#| mcp.server.fastmcp.tools: Tool ToolManager
#| mcp.server.fastmcp.tools.base: Tool
#| mcp.server.fastmcp.tools.tool_manager: ToolManager
#| mcp.server.fastmcp.utilities:
#| mcp.server.fastmcp.utilities.context_injection: find_context_parameter inject_context
#| mcp.server.fastmcp.utilities.func_metadata: ArgModelBase FuncMetadata StrictJsonSchema func_metadata
#| mcp.server.fastmcp.utilities.logging: configure_logging get_logger
#| mcp.server.fastmcp.utilities.types: Audio Image
#| mcp.server.lowlevel: NotificationOptions Server
#| mcp.server.lowlevel.experimental: ExperimentalHandlers
#| mcp.server.lowlevel.func_inspection: create_call_wrapper
#| mcp.server.lowlevel.helper_types: ReadResourceContents
#| mcp.server.lowlevel.server: CombinationContent HandlerEntry NotificationHandler NotificationOptions
#|   RequestHandler Server StructuredContent UnstructuredContent lifespan
#| mcp.server.mcpserver: AESGCMRequestStateCodec AcceptedElicitation AssistantMessage Audio CancelledElicitation
#|   Context DEFAULT_RESOURCE_SECURITY DeclinedElicitation Elicit ElicitationResult Extension Icon Image
#|   InvalidRequestState ListRoots MCPServer Message MethodBinding RequestStateBoundary RequestStateCodec
#|   RequestStateSecurity Resolve ResourceBinding ResourceSecurity Sample ToolBinding UserMessage
#|   authenticated_principal require_client_extension
#| mcp.server.mcpserver.context: Context
#| mcp.server.mcpserver.exceptions: InvalidSignature MCPServerError ResourceError ResourceNotFoundError ToolError
#|   UnexpectedResourceError UnexpectedToolError
#| mcp.server.mcpserver.prompts: Prompt PromptManager
#| mcp.server.mcpserver.prompts.base: AssistantMessage Message Prompt PromptArgument PromptResult
#|   SyncPromptResult UserMessage
#| mcp.server.mcpserver.prompts.manager: PromptManager
#| mcp.server.mcpserver.resolve: AcceptedElicitation CancelledElicitation DeclinedElicitation Elicit
#|   ElicitationResult ListRoots Resolve Sample build_resolver_plans find_resolved_parameters resolve_arguments
#|   returns_input_required
#| mcp.server.mcpserver.resources: BinaryResource DEFAULT_RESOURCE_SECURITY DirectoryResource FileResource
#|   FunctionResource HttpResource Resource ResourceManager ResourceSecurity ResourceSecurityError
#|   ResourceTemplate TextResource
#| mcp.server.mcpserver.resources.base: Resource
#| mcp.server.mcpserver.resources.resource_manager: ResourceManager
#| mcp.server.mcpserver.resources.templates: DEFAULT_RESOURCE_SECURITY ResourceSecurity ResourceSecurityError
#|   ResourceTemplate
#| mcp.server.mcpserver.resources.types: BinaryResource DirectoryResource FileResource FunctionResource
#|   HttpResource TextResource
#| mcp.server.mcpserver.server: MCPServer Settings TransportSecuritySettings lifespan_wrapper
#|   require_client_extension
#| mcp.server.mcpserver.tools: Tool ToolManager
#| mcp.server.mcpserver.tools.base: Tool
#| mcp.server.mcpserver.tools.tool_manager: ToolManager
#| mcp.server.mcpserver.utilities:
#| mcp.server.mcpserver.utilities.context_injection: find_context_parameter inject_context
#| mcp.server.mcpserver.utilities.func_metadata: ArgModelBase FuncMetadata StrictJsonSchema func_metadata
#| mcp.server.mcpserver.utilities.logging: configure_logging get_logger
#| mcp.server.mcpserver.utilities.types: Audio Image
#| mcp.server.models: InitializationOptions
#| mcp.server.request_state: AESGCMRequestStateCodec InvalidRequestState RequestStateBoundary RequestStateCodec
#|   RequestStateSecurity authenticated_principal
#| mcp.server.runner: CallNext ServerMiddleware ServerRunner aclose_shielded modern_on_request serve_connection
#|   serve_dual_era_loop serve_loop serve_one
#| mcp.server.session: InitializationState ServerRequestResponder ServerSession
#| mcp.server.sse: SseServerTransport
#| mcp.server.stdio: stdio_server
#| mcp.server.streamable_http: CONTENT_TYPE_JSON='application/json' CONTENT_TYPE_SSE='text/event-stream'
#|   EventCallback EventId=str EventMessage EventStore GET_STREAM_KEY='_GET_stream'
#|   LAST_EVENT_ID_HEADER='last-event-id' MAXIMUM_MESSAGE_SIZE=4194304
#|   MCP_PROTOCOL_VERSION_HEADER='mcp-protocol-version' MCP_SESSION_ID_HEADER='mcp-session-id'
#|   REQUEST_CANCELLED=-32800 REQUEST_STREAM_BUFFER_SIZE=16 SSEEvent StreamId=str StreamableHTTPServerTransport
#|   check_accept_headers
#| mcp.server.streamable_http_manager: DEFAULT_MAX_REQUEST_BODY_SIZE=4194304 DEFAULT_MAX_SESSIONS=10000
#|   DEFAULT_SESSION_IDLE_TIMEOUT=1800 RequestBodyLimitMiddleware StreamableHTTPASGIApp
#|   StreamableHTTPSessionManager
#| mcp.server.streaming_asgi_transport: StreamingASGIResponseStream StreamingASGITransport
#| mcp.server.subscriptions: InMemorySubscriptionBus ListenHandler PromptsListChanged ResourceUpdated
#|   ResourcesListChanged SUBSCRIPTION_ID_META_KEY='io.modelcontextprotocol/subscriptionId' ServerEvent
#|   SubscriptionBus ToolsListChanged
#| mcp.server.transport_security: DEFAULT_MAX_REQUEST_BODY_SIZE=4194304 RequestBodyLimitMiddleware
#|   TransportSecurityMiddleware TransportSecuritySettings
#| mcp.server.validation: check_sampling_tools_capability validate_sampling_tools
#|   validate_tool_use_result_messages wants_sampling_tools
#| mcp.server.websocket: websocket_server
#| mcp.shared:
#| mcp.shared.auth: AuthorizationCodeResult InvalidRedirectUriError InvalidScopeError
#|   JWT_BEARER_GRANT_TYPE='urn:ietf:params:oauth:grant-type:jwt-bearer' OAuthClientInformationFull
#|   OAuthClientMetadata OAuthClientMetadataBase OAuthMetadata OAuthToken ProtectedResourceMetadata
#|   TokenEndpointAuthMethod
#| mcp.shared.auth_utils: calculate_token_expiry check_resource_allowed resource_url_from_server_url
#| mcp.shared.context: BaseContext RequestContext
#| mcp.shared.direct_dispatcher: DirectDispatcher create_direct_dispatcher_pair
#| mcp.shared.dispatcher: CallOptions DispatchContext Dispatcher OnNotify OnNotifyIntercept OnRequest Outbound
#|   ProgressFnT as_request_id coerce_request_id run_notify_intercept
#| mcp.shared.exceptions: MCPDeprecationWarning MCPError McpError NoBackChannelError UrlElicitationRequiredError
#| mcp.shared.experimental:
#| mcp.shared.experimental.tasks:
#| mcp.shared.experimental.tasks.capabilities: check_tasks_capability has_task_augmented_elicitation
#|   has_task_augmented_sampling require_task_augmented_elicitation require_task_augmented_sampling
#| mcp.shared.experimental.tasks.context: TaskContext
#| mcp.shared.experimental.tasks.helpers: MODEL_IMMEDIATE_RESPONSE_KEY='io.modelcontextprotocol/model-immediate-response'
#|   RELATED_TASK_METADATA_KEY='io.modelcontextprotocol/related-task' cancel_task create_task_state
#|   generate_task_id is_terminal task_execution
#| mcp.shared.experimental.tasks.in_memory_task_store: InMemoryTaskStore StoredTask
#| mcp.shared.experimental.tasks.message_queue: InMemoryTaskMessageQueue QueuedMessage TaskMessageQueue
#| mcp.shared.experimental.tasks.polling: poll_until_terminal
#| mcp.shared.experimental.tasks.resolver: Resolver
#| mcp.shared.experimental.tasks.store: TaskStore
#| mcp.shared.extension: validate_extension_identifier
#| mcp.shared.inbound: ERROR_CODE_HTTP_STATUS InboundLadderRejection InboundModernRoute
#|   MCP_METHOD_HEADER='mcp-method' MCP_NAME_HEADER='mcp-name' MCP_PARAM_HEADER_PREFIX='Mcp-Param-'
#|   MCP_PROTOCOL_VERSION_HEADER='mcp-protocol-version' NAME_BEARING_METHODS X_MCP_HEADER_KEY='x-mcp-header'
#|   classify_inbound_request decode_header_value encode_header_value find_duplicated_routing_header
#|   find_invalid_x_mcp_header mcp_param_headers unsupported_protocol_version_rejection
#|   validate_mcp_param_headers x_mcp_header_map
#| mcp.shared.jsonrpc_dispatcher: JSONRPCDispatcher cancelled_request_id_from_params
#|   handler_exception_to_error_data progress_token_from_params
#| mcp.shared.memory: MessageStream create_client_server_memory_streams
#|   create_connected_server_and_client_session
#| mcp.shared.message: ClientMessageMetadata CloseSSEStreamCallback MessageMetadata ResumptionToken=str
#|   ResumptionTokenUpdateCallback ServerMessageMetadata SessionMessage
#| mcp.shared.metadata_utils: get_display_name
#| mcp.shared.path_security: PathEscapeError contains_path_traversal is_absolute_path safe_join
#| mcp.shared.peer: ClientPeer Meta
#| mcp.shared.progress: Progress ProgressContext progress
#| mcp.shared.response_router: ResponseRouter
#| mcp.shared.session: BaseSession ProgressFnT RequestId RequestResponder
#| mcp.shared.subscriptions: LISTEN_STREAM_METHODS PromptsListChanged ResourceUpdated ResourcesListChanged
#|   SUBSCRIPTION_ID_META_KEY='io.modelcontextprotocol/subscriptionId' ServerEvent ToolsListChanged
#|   event_from_wire event_matches event_to_notification
#| mcp.shared.tool_name_validation: SEP_986_URL='https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names'
#|   ToolNameValidationResult issue_tool_name_warning validate_and_warn_tool_name validate_tool_name
#| mcp.shared.transport_context: TransportContext
#| mcp.shared.uri_template: DEFAULT_MAX_TEMPLATE_LENGTH=8192 DEFAULT_MAX_URI_LENGTH=65536
#|   DEFAULT_MAX_VARIABLES=256 InvalidUriTemplate Operator UriTemplate Variable
#| mcp.shared.version:
#| mcp.types: Annotations AnyFunction AudioContent BaseMetadata BlobResourceContents
#|   CLIENT_CAPABILITIES_META_KEY='io.modelcontextprotocol/clientCapabilities'
#|   CLIENT_INFO_META_KEY='io.modelcontextprotocol/clientInfo' CONNECTION_CLOSED=-32000 CORE_RESULT_TYPES
#|   CacheableResult CallToolRequest CallToolRequestParams CallToolResult CancelTaskRequest
#|   CancelTaskRequestParams CancelTaskResult CancelledNotification CancelledNotificationParams
#|   ClientCapabilities ClientNotification ClientNotificationType ClientRequest ClientRequestType ClientResult
#|   ClientResultType ClientTasksCapability ClientTasksRequestsCapability CompleteRequest CompleteRequestParams
#|   CompleteResult Completion CompletionArgument CompletionContext CompletionsCapability Content ContentBlock
#|   CreateMessageRequest CreateMessageRequestParams CreateMessageResult CreateMessageResultWithTools
#|   CreateTaskResult Cursor=str DEFAULT_NEGOTIATED_VERSION='2025-03-26' DiscoverRequest DiscoverResult
#|   ElicitCompleteNotification ElicitCompleteNotificationParams ElicitRequest ElicitRequestFormParams
#|   ElicitRequestParams ElicitRequestURLParams ElicitRequestedSchema ElicitResult ElicitationCapability
#|   ElicitationRequiredErrorData EmbeddedResource EmptyResult ErrorData FormElicitationCapability
#|   GetPromptRequest GetPromptRequestParams GetPromptResult GetTaskPayloadRequest GetTaskPayloadRequestParams
#|   GetTaskPayloadResult GetTaskRequest GetTaskRequestParams GetTaskResult HEADER_MISMATCH=-32020
#|   INTERNAL_ERROR=-32603 INVALID_PARAMS=-32602 INVALID_REQUEST=-32600 Icon IconTheme ImageContent
#|   Implementation IncludeContext InitializeRequest InitializeRequestParams InitializeResult
#|   InitializedNotification InputRequest InputRequests InputRequiredResult InputResponse
#|   InputResponseRequestParams InputResponses JSONRPCError JSONRPCMessage JSONRPCNotification JSONRPCRequest
#|   JSONRPCResponse JSONRPC_VERSION='2.0' LATEST_PROTOCOL_VERSION='2026-07-28'
#|   LOG_LEVEL_META_KEY='io.modelcontextprotocol/logLevel' ListPromptsRequest ListPromptsResult
#|   ListResourceTemplatesRequest ListResourceTemplatesResult ListResourcesRequest ListResourcesResult
#|   ListRootsRequest ListRootsResult ListTasksRequest ListTasksResult ListToolsRequest ListToolsResult
#|   LoggingCapability LoggingLevel LoggingMessageNotification LoggingMessageNotificationParams
#|   METHOD_NOT_FOUND=-32601 MISSING_REQUIRED_CLIENT_CAPABILITY=-32021 MissingRequiredClientCapabilityErrorData
#|   ModelHint ModelPreferences Notification NotificationParams PARSE_ERROR=-32700
#|   PROTOCOL_VERSION_META_KEY='io.modelcontextprotocol/protocolVersion' PaginatedRequest PaginatedRequestParams
#|   PaginatedResult PingRequest ProgressNotification ProgressNotificationParams ProgressToken Prompt
#|   PromptArgument PromptListChangedNotification PromptMessage PromptReference PromptsCapability
#|   REQUEST_TIMEOUT=-32001 ReadResourceRequest ReadResourceRequestParams ReadResourceResult RelatedTaskMetadata
#|   Request RequestId RequestParams RequestParamsMeta Resource ResourceContents ResourceLink
#|   ResourceListChangedNotification ResourceReference ResourceTemplate ResourceTemplateReference
#|   ResourceUpdatedNotification ResourceUpdatedNotificationParams ResourcesCapability Result ResultType Role
#|   Root RootsCapability RootsListChangedNotification SERVER_INFO_META_KEY='io.modelcontextprotocol/serverInfo'
#|   SamplingCapability SamplingContent SamplingContextCapability SamplingMessage SamplingMessageContentBlock
#|   SamplingToolsCapability ServerCapabilities ServerNotification ServerNotificationType ServerRequest
#|   ServerRequestType ServerResult ServerResultType ServerTasksCapability ServerTasksRequestsCapability
#|   SetLevelRequest SetLevelRequestParams StopReason SubscribeRequest SubscribeRequestParams SubscriptionFilter
#|   SubscriptionsAcknowledgedNotification SubscriptionsAcknowledgedNotificationParams SubscriptionsListenRequest
#|   SubscriptionsListenRequestParams SubscriptionsListenResult TASK_FORBIDDEN='forbidden'
#|   TASK_OPTIONAL='optional' TASK_REQUIRED='required' TASK_STATUS_CANCELLED='cancelled'
#|   TASK_STATUS_COMPLETED='completed' TASK_STATUS_FAILED='failed' TASK_STATUS_INPUT_REQUIRED='input_required'
#|   TASK_STATUS_WORKING='working' Task TaskExecutionMode TaskMetadata TaskStatus TaskStatusNotification
#|   TaskStatusNotificationParams TasksCallCapability TasksCancelCapability TasksCreateElicitationCapability
#|   TasksCreateMessageCapability TasksElicitationCapability TasksListCapability TasksSamplingCapability
#|   TasksToolsCapability TextContent TextResourceContents Tool ToolAnnotations ToolChoice ToolExecution
#|   ToolListChangedNotification ToolResultContent ToolUseContent ToolsCapability
#|   UNSUPPORTED_PROTOCOL_VERSION=-32022 URL_ELICITATION_REQUIRED=-32042 UnsubscribeRequest
#|   UnsubscribeRequestParams UnsupportedProtocolVersionErrorData UrlElicitationCapability
#|   client_notification_adapter client_request_adapter client_result_adapter jsonrpc_message_adapter
#|   server_notification_adapter server_request_adapter server_result_adapter
#| mcp.types.jsonrpc: CONNECTION_CLOSED=-32000 ErrorData HEADER_MISMATCH=-32020 INTERNAL_ERROR=-32603
#|   INVALID_PARAMS=-32602 INVALID_REQUEST=-32600 JSONRPCError JSONRPCMessage JSONRPCNotification JSONRPCRequest
#|   JSONRPCResponse JSONRPC_VERSION='2.0' METHOD_NOT_FOUND=-32601 MISSING_REQUIRED_CLIENT_CAPABILITY=-32021
#|   PARSE_ERROR=-32700 REQUEST_TIMEOUT=-32001 RequestId UNSUPPORTED_PROTOCOL_VERSION=-32022
#|   URL_ELICITATION_REQUIRED=-32042 jsonrpc_message_adapter
#| mcp.types.methods: CACHEABLE_METHODS CLIENT_NOTIFICATIONS CLIENT_REQUESTS CLIENT_RESULTS CacheableMethod
#|   INPUT_REQUIRED_METHODS MONOLITH_NOTIFICATIONS MONOLITH_REQUESTS MONOLITH_RESULTS SERVER_NOTIFICATIONS
#|   SERVER_REQUESTS SERVER_RESULTS SPEC_CLIENT_METHODS SPEC_CLIENT_NOTIFICATION_METHODS is_input_required
#|   parse_client_notification parse_client_request parse_client_result parse_server_notification
#|   parse_server_request parse_server_result serialize_server_result validate_client_notification
#|   validate_client_request validate_client_result validate_server_result
#| mcp.types.version: HANDSHAKE_PROTOCOL_VERSIONS KNOWN_PROTOCOL_VERSIONS LATEST_HANDSHAKE_VERSION='2025-11-25'
#|   LATEST_MODERN_VERSION='2026-07-28' LATEST_PROTOCOL_VERSION='2026-07-28' MODERN_PROTOCOL_VERSIONS
#|   OLDEST_SUPPORTED_VERSION='2024-11-05' SUPPORTED_PROTOCOL_VERSIONS is_version_at_least
#| fastmcp:Context: client_extension_settings client_id client_supports_extension close_sse_stream debug
#|   delete_state disable_components elicit enable_components error fastmcp get_http_request get_prompt get_state
#|   info input_responses is_background_task lifespan_context list_prompts list_resources list_roots log
#|   origin_request_id read_resource report_progress request_context request_id request_state reset_visibility
#|   sample sample_step send_notification send_prompt_list_changed send_resource_list_changed
#|   send_tool_list_changed session session_id set_state task_id transport warning
#| fastmcp:FastMCP: add_completion_handler add_extension add_middleware add_prompt add_provider add_resource
#|   add_resource_fn add_template add_tool add_tool_transformation add_transform as_proxy auth call_tool
#|   client_log_level completion custom_route dependencies disable docket enable exclude_tags
#|   experimental_capabilities from_client from_fastapi from_openapi generate_name get_app_tool get_prompt
#|   get_prompts get_resource get_resource_template get_resource_templates get_resources get_tasks get_tool
#|   get_tool_by_hash get_tools http_app icons import_server include_fastmcp_meta include_tags instructions
#|   lifespan list_prompts list_resource_templates list_resources list_tools local_provider middleware mount name
#|   prompt provider_error_strategy providers read_resource remove_tool remove_tool_transformation render_prompt
#|   required_extensions resource run run_async run_http_async run_sse_async run_stdio_async
#|   run_streamable_http_async sampling_handler sampling_handler_behavior settings sse_app streamable_http_app
#|   strict_input_validation tags tool transforms unmount version website_url wrap_transform
#| mcp.server.fastmcp:Context: client_id close_sse_stream close_standalone_sse_stream construct copy debug dict
#|   elicit elicit_url error fastmcp from_orm info json log model_computed_fields model_config model_construct
#|   model_copy model_dump model_dump_json model_extra model_fields model_fields_set model_json_schema
#|   model_parametrized_name model_post_init model_rebuild model_validate model_validate_json
#|   model_validate_strings parse_file parse_obj parse_raw read_resource report_progress request_context
#|   request_id schema schema_json session update_forward_refs validate warning
#| mcp.server.fastmcp:FastMCP: add_prompt add_resource add_tool call_tool completion custom_route dependencies
#|   get_context get_prompt icons instructions list_prompts list_resource_templates list_resources list_tools
#|   name prompt read_resource remove_tool resource run run_sse_async run_stdio_async run_streamable_http_async
#|   session_manager settings sse_app streamable_http_app tool website_url
#| mcp.server.mcpserver:Context: client_capabilities close_sse_stream close_standalone_sse_stream construct copy
#|   debug dict elicit elicit_url error from_orm headers info input_responses json log mcp_server
#|   model_computed_fields model_config model_construct model_copy model_dump model_dump_json model_extra
#|   model_fields model_fields_set model_json_schema model_parametrized_name model_post_init model_rebuild
#|   model_validate model_validate_json model_validate_strings notify_prompts_changed notify_resource_updated
#|   notify_resources_changed notify_tools_changed parse_file parse_obj parse_raw protocol_version read_resource
#|   report_progress request_context request_id request_state schema schema_json session update_forward_refs
#|   validate warning
#| mcp.server.mcpserver:MCPServer: add_prompt add_resource add_tool call_tool completion custom_route
#|   dependencies description get_prompt icons instructions list_prompts list_resource_templates list_resources
#|   list_tools middleware name prompt read_resource remove_prompt remove_tool resource run run_sse_async
#|   run_stdio_async run_streamable_http_async session_manager settings sse_app streamable_http_app title tool
#|   version website_url
# </sdk-surface>

_SDK_SERVER_OPTIONS = {
    "tool": ("name", "title", "description", "annotations", "icons", "meta", "output_schema",
             "structured_output", "timeout"),
    "resource": ("name", "title", "description", "mime_type", "size", "annotations", "icons", "meta"),
    "prompt": ("name", "title", "description", "icons", "meta"),
}
_SDK_CACHE = {}


def _sdk_json(value):
    """An alias object (or a list/dict of them) as the JSON the protocol carries."""
    if isinstance(value, _SDKModel):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_sdk_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _sdk_json(v) for k, v in value.items()}
    if hasattr(value, "to_content") and not isinstance(value, type):
        return value.to_content()
    return value


def _camel(name: str) -> str:
    """mcp 2.x spells fields in snake_case (mime_type), the wire in camelCase (mimeType)."""
    if name in ("_meta", "meta"):                  # mcp 1.x names the field meta, with the alias _meta
        return "_meta"
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


class _SDKValidationError(ValueError):
    """pydantic's ValidationError (a ValueError), raised by a model built without a field it requires."""


class _SDKModel:
    """A protocol object built with keyword fields, like the SDK's pydantic types.

    Fields are kept under their wire names (``inputSchema``, ``_meta``); a field may be given
    and read in mcp 1.x's spelling (``inputSchema``, ``meta``) or mcp 2.x's (``input_schema``).
    A typed model (``fields`` set, see _SDK_TYPES) reads a field it was not given as its
    default (None), and dumps as pydantic does.
    """
    kind = None
    fields = ()                     # the wire names of a typed model's fields, in the SDK's order
    defaults = {}                   # the fields whose default is not None (a copy is handed out)
    required = ()                   # the fields the SDK's model cannot be built without

    def __init__(self, **fields) -> None:
        given = set(_camel(k) for k in fields)
        missing = [key for key in self.required if key not in given]
        if missing:                 # pydantic's input_value is the keywords as they were given
            raise _SDKValidationError(_pydantic_report(type(self).__name__, [
                ((key,), "missing", _PYDANTIC_WORDS["missing"], dict(fields)) for key in missing]))
        if self.kind is not None:
            fields.setdefault("type", self.kind)
        self.__dict__["_fields"] = {_camel(k): v for k, v in fields.items() if v is not None}

    def __getattr__(self, name):
        fields = self.__dict__.get("_fields", {})
        wire = _camel(name)
        if name in fields or wire in fields:
            return fields.get(name, fields.get(wire))
        if wire in type(self).fields and not name.startswith("__"):
            default = type(self).defaults.get(wire)
            return list(default) if isinstance(default, list) else default
        raise AttributeError(name)

    def __setattr__(self, name, value) -> None:
        if value is None:
            self._fields.pop(_camel(name), None)
        else:
            self._fields[_camel(name)] = value

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.model_dump() == self.model_dump()

    __hash__ = None                 # as pydantic's models: mutable, so not hashable

    def _items(self) -> list:
        """(wire name, value) of every field: the declared ones in order (defaults too), then the rest."""
        declared = [(k, self._fields.get(k, type(self).defaults.get(k))) for k in type(self).fields]
        return declared + [(k, v) for k, v in self._fields.items() if k not in type(self).fields]

    def model_dump(self, *, by_alias: bool = False, exclude_none: bool = False, mode: str = "python",
                   exclude_unset: bool = False, include=None, exclude=None, **_ignored) -> dict:
        """The fields as a dict, as pydantic's ``model_dump`` gives them (wire names with ``by_alias``)."""
        dumped = {}
        for key, value in self._items():
            name = key if by_alias or key != "_meta" else "meta"
            if (exclude_unset and key not in self._fields) or (exclude_none and value is None) \
                    or (include is not None and name not in include) or (exclude is not None and name in exclude):
                continue
            dumped[name] = _sdk_dumped(value, by_alias, exclude_none, mode)
        return dumped

    def model_dump_json(self, *, by_alias: bool = False, exclude_none: bool = False, indent: int = None,
                        **options) -> str:
        return json.dumps(self.model_dump(by_alias=by_alias, exclude_none=exclude_none, mode="json", **options),
                          indent=indent, ensure_ascii=False)

    def to_json(self) -> dict:
        """What the protocol carries: wire names, no None (as the SDK serialises results)."""
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")

    @classmethod
    def model_validate(cls, value, **_ignored):
        """The model from its dict (wire or Python names), or the model itself."""
        if isinstance(value, cls):
            return value
        if isinstance(value, _SDKModel):
            value = value.model_dump(by_alias=True)
        if not isinstance(value, dict):
            raise TypeError("%s.model_validate takes a dict, not %s" % (cls.__name__, type(value).__name__))
        return cls(**value)

    @classmethod
    def model_validate_json(cls, text, **_ignored):
        return cls.model_validate(json.loads(text))

    def model_copy(self, *, update: dict = None, deep: bool = False):
        import copy
        fields = copy.deepcopy(self._fields) if deep else dict(self._fields)
        fields.update({_camel(k): v for k, v in (update or {}).items()})
        return type(self)(**fields)

    @property
    def model_fields_set(self) -> set:
        return set(self._fields)

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % i for i in self._fields.items()))


def _sdk_dumped(value, by_alias: bool, exclude_none: bool, mode: str):
    """A field's value as model_dump gives it: models dumped, URLs and the like as text in JSON mode."""
    if isinstance(value, _SDKModel):
        return value.model_dump(by_alias=by_alias, exclude_none=exclude_none, mode=mode)
    if isinstance(value, (list, tuple)):
        return [_sdk_dumped(v, by_alias, exclude_none, mode) for v in value]
    if isinstance(value, dict):
        return {k: _sdk_dumped(v, by_alias, exclude_none, mode) for k, v in value.items()}
    if hasattr(value, "model_dump") and not isinstance(value, type):     # the user's own pydantic model
        return value.model_dump(by_alias=by_alias, exclude_none=exclude_none, mode=mode)
    if mode == "json" and not isinstance(value, (str, int, float, bool)) and value is not None:
        return getattr(value, "value", None) if _is_enum(type(value)) else str(value)   # AnyUrl, Path, ...
    return value


# The models of mcp.types (mcp_types in mcp 2.3) that servers build and read, each with its
# fields' wire names in the SDK's order; NAME=JSON is a default other than None; NAME! a field
# both SDKs require (built without it, the model raises pydantic's ValidationError, worded as
# pydantic words it: a server's list handler that leaves out a Resource's name answers with
# those words under the SDK, not with a list its client rejects). The blocks (a "type"
# default) are content: a tool of the decorator API may return them as they are. mcp 1.x also
# requires a block's "type"; minimcp fills it in, as mcp 2.x does.
_SDK_TYPES = {
    # content
    "TextContent": 'type="text" text! annotations _meta',
    "ImageContent": 'type="image" data! mimeType! annotations _meta',
    "AudioContent": 'type="audio" data! mimeType! annotations _meta',
    "EmbeddedResource": 'type="resource" resource! annotations _meta',
    "ResourceLink": 'name! title uri! description mimeType size icons annotations _meta type="resource_link"',
    "TextResourceContents": "uri! mimeType _meta text!",
    "BlobResourceContents": "uri! mimeType _meta blob!",
    # what a handler asks the client (mcp 2.3's InputRequiredResult holds them)
    "ElicitRequest": 'method="elicitation/create" params',
    "ElicitRequestFormParams": 'mode="form" message requestedSchema _meta',
    "CreateMessageRequest": 'method="sampling/createMessage" params',
    "CreateMessageRequestParams": "messages modelPreferences systemPrompt includeContext temperature maxTokens "
                                  "stopSequences metadata tools toolChoice _meta",
    "ListRootsRequest": 'method="roots/list" params',
    "InputRequiredResult": "inputRequests requestState _meta",
    "Annotations": "audience priority lastModified",
    "Icon": "src! mimeType sizes theme",
    # what the lists hold
    "Tool": "name! title description inputSchema! outputSchema icons annotations _meta execution",
    "Resource": "name! title uri! description mimeType size icons annotations _meta",
    "ResourceTemplate": "name! title uriTemplate! description mimeType icons annotations _meta",
    "Prompt": "name! title description arguments icons _meta",
    "PromptArgument": "name! title description required",
    "Root": "uri! name _meta",
    # results
    "ListToolsResult": "_meta nextCursor tools=[]",
    "ListResourcesResult": "_meta nextCursor resources=[]",
    "ListResourceTemplatesResult": "_meta nextCursor resourceTemplates=[]",
    "ListPromptsResult": "_meta nextCursor prompts=[]",
    "CallToolResult": "_meta content=[] structuredContent isError=false",
    "ReadResourceResult": "_meta contents=[]",
    "GetPromptResult": "_meta description messages=[]",
    "CompleteResult": "_meta completion",
    "Completion": "values=[] total hasMore",
    "EmptyResult": "_meta",
    "ListRootsResult": "_meta roots=[]",
    "CreateMessageResult": "_meta role content model stopReason",
    "ElicitResult": "_meta action content",
    "ErrorData": "code message data",
    # what requests carry
    "RequestParams": "_meta",
    "NotificationParams": "_meta",
    "PaginatedRequestParams": "_meta cursor",
    "CallToolRequestParams": "_meta name arguments task",
    "ReadResourceRequestParams": "_meta uri",
    "SubscribeRequestParams": "_meta uri",
    "UnsubscribeRequestParams": "_meta uri",
    "GetPromptRequestParams": "_meta name arguments",
    "CompleteRequestParams": "_meta ref argument context",
    "SetLevelRequestParams": "_meta level",
    "ProgressNotificationParams": "_meta progressToken progress total message",
    "PromptReference": 'type="ref/prompt" name title',
    "ResourceTemplateReference": 'type="ref/resource" uri',
    "ResourceReference": 'type="ref/resource" uri',
    "CompletionArgument": "name value",
    "CompletionContext": "arguments",
    "ListToolsRequest": 'method="tools/list" params',
    "ListResourcesRequest": 'method="resources/list" params',
    "ListResourceTemplatesRequest": 'method="resources/templates/list" params',
    "ListPromptsRequest": 'method="prompts/list" params',
    "CallToolRequest": 'method="tools/call" params',
    "ReadResourceRequest": 'method="resources/read" params',
    "GetPromptRequest": 'method="prompts/get" params',
    # what a server asks of its client
    "SamplingMessage": "role content _meta",
    "ModelPreferences": "hints costPriority speedPriority intelligencePriority",
    "ModelHint": "name",
    # capabilities and identity
    "ServerCapabilities": "experimental logging prompts resources tools completions tasks extensions",
    "ToolsCapability": "listChanged",
    "PromptsCapability": "listChanged",
    "ResourcesCapability": "subscribe listChanged",
    "LoggingCapability": "",
    "CompletionsCapability": "",
    "ClientCapabilities": "experimental sampling elicitation roots tasks extensions",
    "SamplingCapability": "context tools",
    "RootsCapability": "listChanged",
    "ElicitationCapability": "form url",
    "Implementation": "name title version websiteUrl icons description",
    "InitializeRequestParams": "_meta protocolVersion capabilities clientInfo",
    "RequestParamsMeta": "progressToken",
}


def _sdk_types() -> dict:
    """The typed models of mcp.types, made once: {name: class}."""
    if "types" not in _SDK_CACHE:
        made = {}
        for name, spec in _SDK_TYPES.items():
            fields, defaults, required = [], {}, []
            for word in spec.split():
                key, _, default = word.partition("=")
                if key.endswith("!"):
                    key = key[:-1]
                    required.append(key)
                fields.append(key)
                if default:
                    defaults[key] = json.loads(default)
            kind = defaults.pop("type", None)
            attrs = {"fields": tuple(fields), "defaults": defaults, "kind": kind, "required": tuple(required),
                     "__doc__": "mcp.types.%s: %s." % (name, ", ".join(fields) or "no fields")}
            if kind is not None and name.endswith(("Content", "Resource", "ResourceLink")):
                attrs["to_content"] = _SDKModel.to_json          # a content block is its content
            base = _SDKCallToolResult if name == "CallToolResult" else _SDKModel
            made[name] = type(name, (base,), attrs)
        _SDK_CACHE["types"] = made
    return _SDK_CACHE["types"]


def _sdk_model(name, doc):
    return type(name, (_SDKModel,), {"__doc__": doc})

class _SDKCallToolResult(_SDKModel):
    """A complete tools/call result, passed through as it is."""

    def to_result(self) -> dict:
        result = self.to_json()
        result.setdefault("content", [])
        return result

class _SDKDictModel(dict):
    """A model minimcp takes as the dict it stands for (ToolAnnotations, PromptMessage), which also
    reads as the SDK's model does: its fields as attributes (snake_case too), ``model_dump``."""
    fields = ()

    def __getattr__(self, name: str):
        for key in (name, _camel(name)):
            if key in self:
                return self[key]
        if _camel(name) in type(self).fields:
            return None
        raise AttributeError(name)

    def model_dump(self, *, by_alias: bool = False, exclude_none: bool = False, mode: str = "python",
                   **_ignored) -> dict:
        dumped = {name: self.get(name) for name in type(self).fields}
        dumped.update(self)
        return {k: _sdk_dumped(v, by_alias, exclude_none, mode) for k, v in dumped.items()
                if not (exclude_none and v is None)}

class _SDKToolAnnotations(_SDKDictModel):
    """Tool annotations (readOnlyHint, ...), as the dict minimcp takes."""
    fields = ("title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")

    def __init__(self, **fields) -> None:       # as given: each dialect keeps what its SDK's model keeps
        super().__init__((k, v) for k, v in fields.items() if v is not None)

class _SDKPromptMessage(_SDKDictModel):
    """A prompt message: ``PromptMessage(role="user", content=TextContent(...))``."""
    fields = ("role", "content")

    def __init__(self, role: str = "user", content=None, **_ignored) -> None:
        super().__init__(role=role, content=_sdk_json(content))

class _SDKMessage(_SDKPromptMessage):
    """A prompt message: ``Message("text")`` or ``Message(content, role="assistant")``."""

    def __init__(self, content=None, role: str = "user", **_ignored) -> None:
        if not isinstance(content, (str, dict, _SDKModel)) and not hasattr(content, "to_content"):
            content = json.dumps(content, ensure_ascii=False, default=_json_default)
        super().__init__(role=role, content=content)

def _sdk_role_message(name: str, role: str):
    def __init__(self, content=None, **fields) -> None:      # the role is the class's, whatever fields say
        _SDKMessage.__init__(self, content, role=role)
    return type(name, (_SDKMessage,), {"__init__": __init__, "__doc__": "A prompt message whose role is %s." % role})

class _SDKToolError(Exception):
    """Raise it in a tool: the model reads its message in an ``isError`` result."""

class _SDKResourceError(Exception):
    """Raise it in a resource: the client gets an error with its message."""

class _SDKFastMCP(MCPServer):
    """minimcp's MCPServer with an SDK's constructor and decorator keywords, served in that SDK's dialect.

    Settings minimcp has no use for (log_level, debug, dependencies, tags, auth, mount paths, ...)
    are accepted and ignored; ``lifespan``, ``host`` and ``port`` are honoured.
    """
    sdk_dialect = "mcp1"                 # each alias class names its SDK (see _sdk_server_class)

    def __class_getitem__(cls, _lifespan_type):
        return cls                       # MCPServer[AppContext] in an annotation: the same class here

    def __init__(self, name: str = None, instructions: str = None, *args, **settings) -> None:
        keep = {k: _sdk_json(settings[k]) for k in ("version", "title", "description", "icons", "website_url")
                if settings.get(k) is not None}         # Icon objects become the dicts minimcp takes
        keep.update({k: settings[k] for k in ("lifespan", "host", "port") if settings.get(k) is not None})
        # fastmcp's strict_input_validation: pydantic's strict mode ("3" is no int), and its words
        self.strict_input_validation = bool(settings.get("strict_input_validation"))
        super().__init__(name or "minimcp", instructions=instructions,
                         dialect=settings.get("dialect") or self.sdk_dialect, **keep)
        if self.sdk_dialect == "mcp1":                  # mcp 1.x's settings: its HTTP ones are read
            self.settings = _SDKSettings(self, settings)

    def _options(self, kind: str, options: dict) -> dict:
        kept = {k: _sdk_json(v) for k, v in options.items() if k in _SDK_SERVER_OPTIONS[kind] and v is not None}
        if options.get("tags") and self.dialect.describe_extra is not None:      # fastmcp lists its tags
            meta = dict(kept.get("meta") or {})
            meta["fastmcp"] = dict(meta.get("fastmcp") or {}, tags=sorted(options["tags"]))
            kept["meta"] = meta
        return kept

    def tool(self, name=None, **options):
        if callable(name) and not isinstance(name, str):
            return super().tool(**self._options("tool", options))(name)
        return super().tool(name, **self._options("tool", options))

    def add_tool(self, fn, **options):
        """MCPServer.add_tool, reading mcp 2.3's ``Resolve(...)`` parameters and ``InputRequiredResult`` returns."""
        super().add_tool(_sdk_registered(fn), **options)
        return fn

    def add_prompt(self, fn, **options):
        """MCPServer.add_prompt, reading mcp 2.3's ``InputRequiredResult`` returns (and resolvers)."""
        super().add_prompt(_sdk_registered(fn), **options)
        return fn

    @property
    def _tool_manager(self) -> "_SDKToolManager":
        """The SDKs' private tool registry, which servers reach into (``mcp._tool_manager._tools``)."""
        return _SDKToolManager(self)

    def resource(self, uri: str, **options):
        return super().resource(uri, **self._options("resource", options))

    def prompt(self, name=None, **options):
        if callable(name) and not isinstance(name, str):
            return super().prompt(**self._options("prompt", options))(name)
        return super().prompt(name, **self._options("prompt", options))

    def run(self, transport: str = None, **options) -> None:
        if transport in (None, "stdio"):
            super().run()
        elif transport in ("streamable-http", "http"):      # the SDK's host/port, as it defaults them
            path = options.get("path") or options.get("streamable_http_path") or \
                getattr(self.__dict__.get("settings"), "streamable_http_path", "/mcp")
            super().run("http", options.get("host"), options.get("port"), path=path,
                        **({"ready": options["ready"]} if "ready" in options else {}))
        else:
            raise SystemExit("minimcp serves stdio and Streamable HTTP, not %r (the HTTP+SSE transport of "
                             "2024-11-05 is deprecated): use transport='streamable-http'" % transport)

    # Servers whose main() is a coroutine await these. minimcp serves on threads of its own, so
    # each runs the server right here, holding the caller's event loop until serving ends.
    async def run_async(self, transport: str = None, **options) -> None:
        self.run(transport, **options)

    async def run_stdio_async(self) -> None:
        self.run("stdio")

    async def run_streamable_http_async(self) -> None:
        self.run("streamable-http")

    async def run_http_async(self, **options) -> None:
        self.run("http", **options)


class _SDKSettings:
    """mcp 1.x's ``FastMCP.settings``: what the constructor was given, over the SDK's defaults.

    ``host`` and ``port`` are the server's (``run(transport="streamable-http")`` serves there);
    ``streamable_http_path``, ``json_response`` and ``stateless_http`` are read by
    ``run()`` and ``streamable_http_app()``; the rest are kept and ignored.
    """
    _DEFAULTS = {"debug": False, "log_level": "INFO", "mount_path": "/", "sse_path": "/sse",
                 "message_path": "/messages/", "streamable_http_path": "/mcp", "json_response": False,
                 "stateless_http": False}

    def __init__(self, server, given: dict) -> None:
        self.__dict__.update(self._DEFAULTS, _server=server)
        self.__dict__.update((k, v) for k, v in given.items() if k not in ("host", "port"))

    def __getattr__(self, name: str):
        if name in ("host", "port"):
            return getattr(self._server, name)
        raise AttributeError("'Settings' object has no attribute %r" % name)

    def __setattr__(self, name: str, value) -> None:
        if name in ("host", "port"):
            setattr(self._server, name, int(value) if name == "port" else value)
        else:
            self.__dict__[name] = value


class _SDKToolView:
    """A registered tool as the SDK's ``Tool`` shows it: ``name``, ``description``, ``fn`` and
    ``parameters``, the inputSchema listed. Setting ``parameters`` replaces what tools/list
    shows and nothing else: the SDK validates arguments against the function, not the listing."""

    def __init__(self, tool) -> None:
        self._tool = tool

    name = property(lambda self: self._tool.name)
    description = property(lambda self: self._tool.description)
    fn = property(lambda self: self._tool.fn)

    @property
    def parameters(self) -> dict:
        return self._tool.listed_input_schema or self._tool.input_schema

    @parameters.setter
    def parameters(self, schema: dict) -> None:
        self._tool.listed_input_schema = schema


class _SDKToolManager:
    """``mcp._tool_manager``: ``_tools`` (name -> tool), ``get_tool(name)`` and ``list_tools()``."""

    def __init__(self, server) -> None:
        self._tools = {name: _SDKToolView(tool) for name, tool in server._tools.items()}

    def get_tool(self, name: str):
        return self._tools.get(name)

    def list_tools(self) -> list:
        return list(self._tools.values())


def _sdk_server_class(dialect: str) -> type:
    """The alias server class of one SDK: mcp1 (mcp.server.fastmcp.FastMCP, minimcp.FastMCP), mcp2
    (mcp.server.mcpserver.MCPServer, mcp.server.MCPServer) or fastmcp (fastmcp.FastMCP)."""
    key = "class:" + dialect
    if key not in _SDK_CACHE:
        _SDK_CACHE[key] = type("MCPServer" if dialect == "mcp2" else "FastMCP", (_SDKFastMCP,),
                               {"sdk_dialect": dialect, "__doc__": _SDKFastMCP.__doc__})
    return _SDK_CACHE[key]


# How fastmcp 4.2.3 reads a docstring (its parse_docstring, over griffe 2.4's parsers): the
# Google, NumPy and Sphinx readers are tried in turn, and the first that finds a section (or a
# Note:-like admonition) gives the description (its first text section, line breaks kept) and
# the parameters' descriptions; when none finds one, the whole dedented docstring is the
# description. Resources and templates get the whole docstring as it is.
_GOOGLE_SECTIONS = frozenset((
    "args", "arguments", "params", "parameters", "keyword args", "keyword arguments", "other args",
    "other arguments", "other params", "other parameters", "type args", "type arguments", "type params",
    "type parameters", "raises", "exceptions", "returns", "yields", "receives", "examples", "attributes",
    "functions", "methods", "classes", "type aliases", "modules", "warns", "warnings"))
_GOOGLE_PARAMETERS = frozenset(("args", "arguments", "params", "parameters"))
_NUMPY_SECTIONS = frozenset((
    "deprecated", "parameters", "other parameters", "type parameters", "returns", "yields", "receives",
    "raises", "warns", "examples", "attributes", "functions", "methods", "classes", "type aliases", "modules"))
_STRUCTURAL_ADMONITIONS = frozenset((    # fastmcp's: the admonitions that end a description
    "attention", "caution", "danger", "error", "example", "hint", "important", "note", "notes", "raise",
    "references", "return", "see-also", "tip", "todo", "warning", "yield"))
_SPHINX_FIELDS = frozenset(("param", "parameter", "arg", "argument", "key", "keyword", "type", "var", "ivar",
                            "cvar", "vartype", "returns", "return", "rtype", "raises", "raise", "except",
                            "exception"))


def _blank(line: str) -> bool:
    return not line or line.isspace()


def _google_items(lines: list, offset: int) -> tuple:
    """griffe's Google block items: ([(first line, [lines])...], the last line read)."""
    if offset >= len(lines):
        return [], offset
    while offset < len(lines) and _blank(lines[offset]):
        offset += 1
    if offset >= len(lines):
        return [], offset - 1
    indent = len(lines[offset]) - len(lines[offset].lstrip())
    if indent == 0:
        return [], offset - 1
    items, current = [], [lines[offset][indent:]]
    offset += 1
    while offset < len(lines):
        line = lines[offset]
        if _blank(line):
            current.append("")
        elif line.startswith(" " * indent * 2):
            current.append(line[indent * 2:])
        elif line.startswith(" " * (indent + 1)):
            current.append(line.lstrip())
        elif line.startswith(" " * indent):
            items.append(current)
            current = [line[indent:]]
        else:
            break
        offset += 1
    items.append(current)
    return items, offset - 1


def _google_sections(lines: list) -> tuple:
    """(texts, parameters, structured) as griffe's Google parser and fastmcp read them."""
    import re
    heading = re.compile(r"^(?P<type>[\w][\s\w-]*):(\s+(?P<title>[^\s].*))?\s*$", re.IGNORECASE)
    texts, params, structured, current, fenced, offset = [], {}, False, [], False, 0

    def flush():
        if any(current):
            texts.append("\n".join(current).rstrip("\n"))
        del current[:]
    while offset < len(lines):
        line = lines[offset]
        fence = line.lstrip(" ").startswith("```")
        match = None if fenced or fence or ":" not in line else heading.match(line)
        if fenced or fence:
            fenced = fenced != fence
            current.append(line)
        elif match is None:
            current.append(line)
        else:
            kind = match.group("type")
            blank_below = offset + 1 < len(lines) and _blank(lines[offset + 1])
            indented_below = offset + 1 < len(lines) and not blank_below and lines[offset + 1].startswith(" ")
            indented_next = (offset + 2 < len(lines) and not _blank(lines[offset + 2])
                             and lines[offset + 2].startswith(" "))
            blank_above = offset == 0 or _blank(lines[offset - 1])
            if not (indented_below or indented_next) or not blank_above or (indented_next and blank_below):
                current.append(line)           # griffe: not a section (no block, no blank line above)
            elif kind.lower() in _GOOGLE_SECTIONS:
                flush()
                items, offset = _google_items(lines, offset + 1)
                if kind.lower() not in _GOOGLE_PARAMETERS:
                    structured = structured or bool(items)     # griffe drops a section with nothing in it
                for item in items if kind.lower() in _GOOGLE_PARAMETERS else ():
                    head, sep, rest = item[0].partition(":")
                    if not sep:
                        continue
                    name = head.split("(", 1)[0].strip() if "(" in head and head.endswith(")") else head
                    params[name] = "\n".join([rest.lstrip()] + item[1:]).rstrip("\n")
                    structured = True
            else:
                start, block = offset + 1, []
                while start < len(lines) and _blank(lines[start]):
                    start += 1
                indent = len(lines[start]) - len(lines[start].lstrip()) if start < len(lines) else 0
                if indent:
                    offset = start
                    while offset < len(lines) and (lines[offset].startswith(" " * indent) or _blank(lines[offset])):
                        block.append(lines[offset])
                        offset += 1
                    offset -= 1
                if any(block):
                    flush()
                    structured = structured or kind.lower().replace(" ", "-") in _STRUCTURAL_ADMONITIONS
                else:
                    current.append(line)
        offset += 1
    flush()
    return texts, params, structured


def _numpy_items(lines: list, start: int, dashes) -> tuple:
    """The items of a NumPy section whose body starts at ``start``: ([lines of each], the line after)."""
    while start < len(lines) and _blank(lines[start]):
        start += 1
    items, offset = [], start
    if start < len(lines):
        item, offset = [lines[start]], start + 1
        while offset < len(lines):
            next_line = lines[offset]
            if _blank(next_line):
                item.append("")
            elif next_line.startswith("    "):
                item.append(next_line[4:])
            elif next_line.startswith(" "):
                item.append(next_line.lstrip())
            elif offset + 1 < len(lines) and dashes(lines[offset + 1]):
                break
            else:
                items.append(item)
                item = [next_line]
            offset += 1
        items.append(item)
    return items, offset


def _numpy_sections(lines: list) -> tuple:
    """(texts, parameters, structured) as griffe's NumPy parser and fastmcp read them."""
    import re
    dashes = lambda line: "-" in line and _blank(line.replace("-", ""))
    name_re = r"\*{0,2}[_a-z][_a-z0-9]*"
    param_re = re.compile(r"(?P<names>%s(?:,\s%s)*)" % (name_re, name_re), re.IGNORECASE)
    texts, params, structured, current, title, fenced, offset = [], {}, False, [], "", False, 0

    def flush():
        if title:
            kind = title.lower().replace(" ", "-")
            return kind[:-1] if kind in ("warnings", "notes") else kind
        if any(current):
            texts.append("\n".join(current).rstrip("\n"))
        return None
    while offset < len(lines):
        line = lines[offset]
        fence = line.lstrip(" ").startswith("```")
        if fenced or fence:
            fenced = fenced != fence
            current.append(line)
        elif _blank(line):
            current.append("")
        elif offset == len(lines) - 1:
            current.append(line)
        elif dashes(lines[offset + 1]):
            kind = flush()
            structured = structured or kind in _STRUCTURAL_ADMONITIONS
            current, title = [], ""
            if line.lower() in _NUMPY_SECTIONS:
                items, offset = _numpy_items(lines, offset + 2, dashes)
                offset -= 1
                if line.lower() != "parameters":
                    structured = structured or bool(items)     # griffe drops a section with nothing in it
                for item in items if line.lower() == "parameters" else ():
                    found = param_re.match(item[0])
                    if found:
                        structured = True
                        for name in found.group("names").split(", "):
                            params.setdefault(name, "\n".join(item[1:]).rstrip())
            else:
                title = line
                offset += 1
        else:
            current.append(line)
        offset += 1
    kind = flush()
    return texts, params, structured or kind in _STRUCTURAL_ADMONITIONS


def _sphinx_sections(lines: list) -> tuple:
    """(texts, parameters, structured) as griffe's Sphinx parser and fastmcp read them."""
    import re
    described, params, structured, offset = [], {}, False, 0
    while offset < len(lines):
        line = lines[offset]
        field = re.match(r":(\w+)[\s:]", line)
        if not field or field.group(1) not in _SPHINX_FIELDS:
            described.append(line)
            offset += 1
            continue
        block, offset = [line.lstrip()], offset + 1
        while offset < len(lines) and not lines[offset].startswith(":"):
            block.append(lines[offset])
            offset += 1
        parts = _clean_doc("\n".join(block)).split(":", 2)
        if len(parts) < 3:
            continue
        words = parts[1].split(" ")
        if field.group(1) in ("param", "parameter", "arg", "argument", "key", "keyword") and 2 <= len(words):
            structured = True
            params.setdefault(words[-1], parts[2].strip())
        elif field.group(1) not in ("param", "parameter", "arg", "argument", "key", "keyword"):
            structured = True
    while described and _blank(described[0]):
        described.pop(0)
    while described and _blank(described[-1]):
        described.pop()
    return ["\n".join(described)], params, structured


def _fastmcp_docstring(doc, kind: str) -> tuple:
    """fastmcp 4.2.3's (description or None, {argument: description}) of a handler's docstring."""
    text = _clean_doc(doc) if isinstance(doc, str) else ""
    if not text or kind == "resource":
        return text or None, {}
    lines = text.split("\n")
    for parser in (_google_sections, _numpy_sections, _sphinx_sections):
        texts, params, structured = parser(lines)
        if params or structured:
            return (texts[0] if texts else None), params
    return text, {}


def _pydantic_sorted(schema):
    """A schema as pydantic writes it: keys sorted (a properties map as it came), a bare list's
    items {} and a bare dict's additionalProperties true spelled out."""
    if isinstance(schema, list):
        return [_pydantic_sorted(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if schema.get("type") == "array" and "items" not in schema and "prefixItems" not in schema:
        schema = dict(schema, items={})
    if schema.get("type") == "object" and "properties" not in schema and "additionalProperties" not in schema:
        schema = dict(schema, additionalProperties=True)
    return {k: ({n: _pydantic_sorted(v) for n, v in schema[k].items()} if k == "properties" and isinstance(
        schema[k], dict) else _pydantic_sorted(schema[k])) for k in sorted(schema)}


def _fastmcp_prompt_argument(record, argument: dict) -> dict:
    """fastmcp 4.2.3's prompt argument: Annotated[X, "text"] describes it, and a type other than str
    adds how to write it as a string (the type's JSON Schema, compact, as pydantic writes it)."""
    hint = record.hints.get(argument["name"], _EMPTY)
    if hint is _EMPTY:
        return argument
    namespace = record.signature.namespace
    try:
        fielded = _schema_for(hint, namespace).get("description")      # Field(description=...) in Annotated
        hint = _resolve_annotation(hint, namespace)
        origin, args, metadata = _typing_parts(hint)
        words = [m for m in metadata if isinstance(m, str)] if origin == "annotated" else []
        if words and "description" not in argument:
            argument = dict(argument, description=words[0])
        if hint is str:
            return argument
        schema = _schema_for(args[0] if origin == "annotated" else hint, namespace)
    except SchemaError:
        return argument
    schema = {k: v for k, v in schema.items() if k != "description"}
    if fielded and fielded not in words:                  # pydantic's schema keeps a Field's words
        schema["description"] = fielded
    note = ("Provide a value matching the following JSON schema: %s. Encode non-string values as JSON."
            % json.dumps(_pydantic_sorted(schema), separators=(",", ":")))
    described = argument.get("description")
    return dict(argument, description=described + "\n\n" + note if described else note)


def _pydantic_output(described_root):
    """An SDK row's output_spelling: the outputSchema as pydantic writes it, equivalent to minimcp's
    own but spelled out: a bare list's items {}, a bare dict's additionalProperties true, and a
    TypedDict's or dataclass's docstring as its description (dedented; not a dataclass's generated
    one). Whether the class returned is described too (``described_root``): mcp 1.x builds its
    own model of a TypedDict's or dataclass's fields, so neither is (False); mcp 2.3.0 hands
    pydantic a TypedDict as it is, so it is, and a dataclass is not ("typeddict"); fastmcp 4.2.3
    describes both (True)."""
    def spell(schema: dict, hint, namespace: dict) -> dict:
        import copy
        schema = copy.deepcopy(schema)
        resolved = _resolve_annotation(hint, namespace)
        described = described_root is True or (described_root == "typeddict" and _is_typeddict(resolved))
        if not described and (_is_typeddict(resolved) or _is_dataclass(resolved)) and schema.get(
                "description") is not None and schema["description"] == _schema_for(resolved, namespace).get(
                    "description"):
            del schema["description"]              # the class's docstring, which the SDK's own model lacks
        _pydantic_walk(schema, hint, namespace, described, ())
        return schema
    return spell


def _pydantic_walk(schema, hint, namespace: dict, describe: bool, seen: tuple) -> None:
    if not isinstance(schema, dict) or "$ref" in schema:
        return
    try:
        hint = _resolve_annotation(hint, namespace)
    except SchemaError:
        return
    origin, args, _ = _typing_parts(hint)
    if origin == "annotated":
        return _pydantic_walk(schema, args[0], namespace, describe, seen)
    if schema.get("type") == "array" and "items" not in schema and "prefixItems" not in schema:
        schema["items"] = {}
    if schema.get("type") == "object" and "properties" not in schema and schema.get("additionalProperties",
                                                                                    {}) == {}:
        schema["additionalProperties"] = True           # dict and dict[str, Any] alike
    if "anyOf" in schema and len(schema["anyOf"]) == len(args):
        for choice, arg in zip(schema["anyOf"], args):
            _pydantic_walk(choice, arg, namespace, True, seen)
    elif isinstance(schema.get("items"), dict) and args:
        _pydantic_walk(schema["items"], args[0], namespace, True, seen)
    elif isinstance(schema.get("additionalProperties"), dict) and len(args) == 2:
        _pydantic_walk(schema["additionalProperties"], args[1], namespace, True, seen)
    elif (_is_typeddict(hint) or _is_dataclass(hint)) and hint not in seen:
        doc = hint.__dict__.get("__doc__")
        generated = _is_dataclass(hint) and isinstance(doc, str) and doc.startswith(hint.__name__ + "(")
        if describe and isinstance(doc, str) and doc.strip() and not generated:
            schema.setdefault("description", _clean_doc(doc))
        hints = _class_hints(hint)
        for name, prop in (schema.get("properties") or {}).items():
            if name in hints:
                _pydantic_walk(prop, hints[name], _class_namespace(hint), True, seen + (hint,))


def _fastmcp_finite(value, path: str = "$", depth: int = 0) -> None:
    """fastmcp 4.2.3's check of a tool result: inf or nan anywhere is an isError result naming where."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        raise _SDKToolError("Tool result contains a non-finite float (%r) at %s; JSON cannot represent NaN "
                            "or Infinity" % (value, path))
    if depth > 100:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _fastmcp_finite(item, "%s.%s" % (path, key), depth + 1)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _fastmcp_finite(item, "%s[%d]" % (path, index), depth + 1)
    elif _is_dataclass(type(value)):
        for key in value.__dataclass_fields__:
            _fastmcp_finite(getattr(value, key), "%s.%s" % (path, key), depth + 1)


class _SDKElicited(dict):
    """An elicitation answer as the SDKs hand it back: ``.action`` and ``.data`` (``.content`` as
    sent), still minimcp's dict, and awaitable (``await ctx.elicit(...)``)."""

    def __getattr__(self, name: str):
        if name in ("action", "data", "content"):
            return self.get(name)
        raise AttributeError(name)

    def __await__(self):
        return self
        yield


def _sdk_elicit(ctx, message: str, response_type, timeout, key) -> "_SDKElicited":
    """fastmcp's ``ctx.elicit(message, response_type=...)``: a class is asked as its fields and
    answered as an instance; str, int, float, bool or a list of choices is asked as one ``value``."""
    scalar = response_type in (str, int, float, bool)
    if isinstance(response_type, list) and all(isinstance(c, str) for c in response_type):
        schema = {"type": "object", "properties": {"value": {"type": "string", "enum": list(response_type)}},
                  "required": ["value"]}
    elif scalar:
        schema = {"type": "object", "properties": {"value": _schema_for(response_type, {})}, "required": ["value"]}
    else:
        schema = response_type
    answer = Context.elicit.__wrapped__(ctx, message, schema, timeout, key)
    content = answer.get("content") if isinstance(answer, dict) else None
    data = None
    if isinstance(answer, dict) and answer.get("action") == "accept":
        if isinstance(schema, dict):
            data = (content or {}).get("value")
        elif isinstance(response_type, type) and not _is_typeddict(response_type):
            data = response_type(**(content or {}))      # a dataclass or a pydantic model
        else:
            data = dict(content or {})
    return _SDKElicited(answer if isinstance(answer, dict) else {}, data=data)


def _fastmcp_listing(kind: str, record, described: dict) -> dict:
    """fastmcp's own fields in a listing: tags in _meta, a title made from a tool's name, how to
    write a prompt's arguments."""
    meta = described.get("_meta") or {}
    described["_meta"] = dict(meta, fastmcp=dict(meta.get("fastmcp") or {}, tags=(meta.get("fastmcp") or {}).get(
        "tags", [])))
    if kind == "prompt" and described.get("arguments"):
        described["arguments"] = [_fastmcp_prompt_argument(record, a) for a in described["arguments"]]
    if kind == "tool":
        described.setdefault("title", record.name.replace("_", " ").replace("-", " ").title())
        if record.wrap_result:
            described["outputSchema"] = dict(described["outputSchema"], **{"x-fastmcp-wrap-result": True})
    return described


# Invalid arguments in pydantic's words. The SDKs validate a call's arguments with pydantic
# and send str(ValidationError); minimcp's JSON-Schema validator still decides accept or
# reject, and when it rejects, this emulation walks the function's own hints as pydantic's
# lax (python) mode would, collecting every error with pydantic's location, words, type and
# input. Measured against mcp 1.30.0, mcp 2.3.0 and fastmcp 4.2.3 with pydantic 2.14.4 (see
# tests/sdk/test_dialect_words.py). A hint it cannot judge (datetime, custom validators, ...)
# leaves the validator's words, so a wrong report is never invented.

class _Unworded(Exception):
    """A hint the emulation cannot judge as pydantic would: the validator's words are kept."""


_PYDANTIC_WORDS = {   # error type -> pydantic-core's message template
    "missing": "Field required", "missing_argument": "Missing required argument",
    "unexpected_keyword_argument": "Unexpected keyword argument",
    "extra_forbidden": "Extra inputs are not permitted", "none_required": "Input should be None",
    "int_type": "Input should be a valid integer",
    "int_parsing": "Input should be a valid integer, unable to parse string as an integer",
    "int_from_float": "Input should be a valid integer, got a number with a fractional part",
    "int_parsing_size": "Unable to parse input string as an integer, exceeded maximum size",
    "finite_number": "Input should be a finite number",
    "float_type": "Input should be a valid number",
    "float_parsing": "Input should be a valid number, unable to parse string as a number",
    "bool_type": "Input should be a valid boolean",
    "bool_parsing": "Input should be a valid boolean, unable to interpret input",
    "string_type": "Input should be a valid string", "list_type": "Input should be a valid list",
    "set_type": "Input should be a valid set", "frozen_set_type": "Input should be a valid frozenset",
    "tuple_type": "Input should be a valid tuple", "dict_type": "Input should be a valid dictionary",
    "iterable_type": "Input should be iterable", "is_instance_of": "Input should be an instance of {0}",
    "sequence_str": "'str' instances are not allowed as a Sequence value",
    "model_type": "Input should be a valid dictionary or instance of {0}",
    "dataclass_type": "Input should be a dictionary or an instance of {0}",
    "model_attributes_type": "Input should be a valid dictionary or object to extract fields from",
    "literal_error": "Input should be {0}", "enum": "Input should be {0}",
    "greater_than": "Input should be greater than {0}",
    "greater_than_equal": "Input should be greater than or equal to {0}",
    "less_than": "Input should be less than {0}", "less_than_equal": "Input should be less than or equal to {0}",
    "multiple_of": "Input should be a multiple of {0}",
    "string_too_short": "String should have at least {0} character{1}",
    "string_too_long": "String should have at most {0} character{1}",
    "string_pattern_mismatch": "String should match pattern '{0}'",
    "too_short": "{2} should have at least {0} item{1} after validation, not {3}",
    "too_long": "{2} should have at most {0} item{1} after validation, not {3}",
}
_PYDANTIC_JSON_WORDS = {  # what pydantic says instead when it validates JSON text (fastmcp's strict mode)
    "list_type": "Input should be a valid array", "set_type": "Input should be a valid array",
    "frozen_set_type": "Input should be a valid array", "tuple_type": "Input should be a valid array",
    "iterable_type": "Input should be a valid array", "model_type": "Input should be an object",
    "dataclass_type": "Input should be an object", "dict_type": "Input should be an object",
    "none_required": "Input should be null",
}
_PYDANTIC_UNLINKED = ("sequence_str",)       # a custom error of pydantic's: no errors.pydantic.dev line
_PYDANTIC_CONSTRAINTS = ("gt", "ge", "lt", "le", "multiple_of", "min_length", "max_length", "pattern",
                         "allow_inf_nan", "strict")
_PYDANTIC_DOCS = []                          # the docs version of pydantic's links, read once


def _pydantic_docs_version() -> str:
    """major.minor of the installed pydantic, as its links name it; 2.14 (the pinned SDKs') without one.

    Read from the distribution's metadata when an error is first worded: pydantic is not imported.
    """
    if not _PYDANTIC_DOCS:
        try:
            from importlib import metadata
            _PYDANTIC_DOCS.append(".".join(metadata.version("pydantic").split(".")[:2]))
        except Exception:
            _PYDANTIC_DOCS.append("2.14")
    return _PYDANTIC_DOCS[0]


def _pydantic_repr(value) -> str:
    """An input_value as pydantic-core writes it: repr(), cut to 25 + 24 UTF-8 bytes around '...' past 50."""
    text = repr(value)
    data = text.encode("utf-8")
    if len(data) <= 50:
        return text
    return data[:25].decode("utf-8", "ignore") + "..." + data[-24:].decode("utf-8", "ignore")


def _pydantic_number(bound) -> str:
    """A constraint's bound as pydantic-core prints it (a float without '.0' or an exponent)."""
    if isinstance(bound, float) and bound == bound and abs(bound) != float("inf"):
        if bound.is_integer():
            return "%d" % bound
        if "e" in repr(bound):
            import decimal
            return format(decimal.Decimal(repr(bound)), "f")
    return str(bound)


def _pydantic_expected(values: list) -> str:
    shown = [repr(v) for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _pydantic_loc(loc: tuple) -> str:
    return ".".join("`%s`" % p if isinstance(p, str) and "." in p else str(p) for p in loc)


def _pydantic_unwrap(hint, namespace: dict, constraints: dict):
    """(hint without Annotated, constraints with those of its metadata and FieldInfo objects)."""
    try:
        hint = _resolve_annotation(hint, namespace)
    except SchemaError:
        raise _Unworded() from None
    while True:
        origin, args, metadata = _typing_parts(hint)
        if origin != "annotated":
            return hint, constraints
        constraints = dict(constraints)
        items = list(metadata)
        while items:
            item = items.pop(0)
            if isinstance(item, (str, dict)):
                continue                              # minimcp's own descriptions and schema keywords
            if _is_field_info(item):
                items[:0] = list(item.metadata)       # Field(gt=0, ...): annotated_types objects
                continue
            if callable(getattr(item, "func", None)):
                raise _Unworded()                     # BeforeValidator and friends: their own rules
            for name in _PYDANTIC_CONSTRAINTS:
                if getattr(item, name, None) is not None:
                    constraints[name] = getattr(item, name)
        hint = args[0]


def _pydantic_label(hint, namespace: dict) -> str:
    """The name pydantic gives a union member in an error's location (``list[int]``, ``constrained-str``)."""
    hint, constraints = _pydantic_unwrap(hint, namespace, {})
    if hint is None or hint is type(None):
        return "none"
    if hint in (int, float, str, bool):
        limited = {k for k in constraints if k not in ("allow_inf_nan", "strict")}
        return ("constrained-" if limited else "") + hint.__name__
    if hint is _EMPTY or hint is object or repr(hint) == "typing.Any":
        return "any"
    if _is_enum(hint):
        base = next((b.__name__ for b in (str, int, float) if issubclass(hint, b)), None)
        return "%s[%s]" % (base + "-enum" if base else "enum", hint.__name__)
    if isinstance(hint, type) and (_is_pydantic_model(hint) or _is_dataclass(hint) or _is_typeddict(hint)):
        return hint.__name__
    origin, args, _ = _typing_parts(hint)
    name = getattr(hint, "_name", None) or getattr(origin, "_name", None) or getattr(origin, "__name__", "")
    if hint in (list, set, frozenset, dict, tuple):
        origin, name = hint, hint.__name__
    if name == "Literal" or repr(origin) == "typing.Literal":
        return "literal[%s]" % ",".join(repr(a) for a in args)
    if origin == "union" or name == "Union" or repr(origin) == "typing.Union":
        members = [a for a in args if a is not type(None)]
        inner = (_pydantic_label(members[0], namespace) if len(members) == 1 else
                 "union[%s]" % ",".join(_pydantic_label(a, namespace) for a in members))
        return "nullable[%s]" % inner if len(members) < len(args) else inner
    items = [_pydantic_label(a, namespace) for a in args] or ["any"]
    if origin is list or name == "List":
        return "list[%s]" % items[0]
    if name in ("Sequence", "MutableSequence"):
        return ("json-or-python[json=list[%s],python=chain[is-instance[Sequence],function-wrap"
                "[sequence_validator()]]]" % items[0])
    if origin in (set, frozenset) or name in ("Set", "FrozenSet"):
        return "%s[%s]" % ("frozenset" if origin is frozenset or name == "FrozenSet" else "set", items[0])
    if origin is tuple or name == "Tuple":
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            return "tuple[%s, ...]" % items[0]
        return "tuple[%s]" % ", ".join(items)
    if origin is dict or name in ("Dict", "Mapping", "MutableMapping"):
        return "dict[%s]" % ",".join(items if len(items) == 2 else ["any", "any"])
    raise _Unworded()


class _PydanticJudge:
    """Pydantic's verdict on one call's arguments: ``errors`` of (loc, type, words, input)."""

    def __init__(self, namespace: dict, strict: bool) -> None:
        self.namespace, self.strict, self.errors = namespace, strict, []

    def fail(self, loc: tuple, kind: str, value, *parts) -> None:
        words = _PYDANTIC_JSON_WORDS.get(kind) if self.strict else None     # strict: JSON mode
        self.errors.append((loc, kind, words or _PYDANTIC_WORDS[kind].format(*parts), value))

    def check(self, value, hint, loc: tuple, constraints: dict = None, namespace: dict = None) -> None:
        """Judge ``value`` against ``hint`` as pydantic would, appending to ``errors``."""
        namespace = self.namespace if namespace is None else namespace
        hint, constraints = _pydantic_unwrap(hint, namespace, constraints or {})
        strict = self.strict or bool(constraints.get("strict"))
        if hint is _EMPTY or hint is object or repr(hint) == "typing.Any" or type(hint).__name__ == "TypeVar":
            return
        if hint is None or hint is type(None):
            if value is not None:
                self.fail(loc, "none_required", value)
            return
        if _is_enum(hint):
            values = [member.value for member in hint]
            if value not in values:
                self.fail(loc, "enum", value, _pydantic_expected(values))
            return
        if hint is bool:
            return self._boolean(value, loc, strict)
        if hint is int:
            return self._integer(value, loc, constraints, strict)
        if hint is float:
            return self._number(value, loc, constraints, strict)
        if hint is str:
            return self._string(value, loc, constraints)
        if isinstance(hint, type) and _is_pydantic_model(hint):
            return self._model(value, hint, loc)
        if isinstance(hint, type) and _is_dataclass(hint):
            return self._dataclass(value, hint, loc)
        if isinstance(hint, type) and _is_typeddict(hint):
            return self._typeddict(value, hint, loc)
        if isinstance(hint, type) and hasattr(hint, "__get_pydantic_core_schema__"):
            return self._own_rules(value, hint, loc, constraints, strict)
        return self._generic(value, hint, loc, constraints, namespace)

    def _own_rules(self, value, hint, loc: tuple, constraints: dict, strict: bool) -> None:
        """A type that brings its own pydantic rules (pydantic's ``AnyUrl``, ``EmailStr``, a class with
        ``__get_pydantic_core_schema__``): judged by the pydantic the server imported, in its words."""
        pydantic = _pydantic()
        if pydantic is None or constraints:
            raise _Unworded()
        try:
            pydantic.TypeAdapter(hint).validate_python(value, strict=strict or None)
        except ValueError as exc:            # pydantic's ValidationError
            if not callable(getattr(exc, "errors", None)):
                raise _Unworded() from None
            for error in exc.errors():
                self.errors.append((loc + tuple(error["loc"]), error["type"], error["msg"], error["input"]))

    def _generic(self, value, hint, loc: tuple, constraints: dict, namespace: dict) -> None:
        """``check`` for typing's generics: Literal, unions, lists, sequences, sets, tuples, dicts."""
        origin, args, _ = _typing_parts(hint)
        name = getattr(hint, "_name", None) or getattr(origin, "_name", None) or ""
        if hint in (list, set, frozenset, dict, tuple):
            origin, name, args = hint, "", ()
        if name == "Literal" or repr(origin) == "typing.Literal":
            if value not in args:
                self.fail(loc, "literal_error", value, _pydantic_expected(list(args)))
            return
        if origin == "union" or name == "Union" or repr(origin) == "typing.Union":
            return self._union(value, args, loc, constraints, namespace)
        if name in ("Required", "NotRequired", "ReadOnly"):
            return self.check(value, args[0], loc, constraints, namespace)
        item = args[0] if args else _EMPTY
        if origin is list or name == "List":
            return self._items(value, item, loc, constraints, namespace, "list_type", "List")
        if name in ("Sequence", "MutableSequence") or (origin is not None and getattr(origin, "__name__", "") in (
                "Sequence", "MutableSequence") and getattr(origin, "__module__", "") == "collections.abc"):
            return self._sequence(value, item, loc, constraints, namespace)
        if name == "Iterable" or getattr(origin, "__name__", "") == "Iterable":
            if not isinstance(value, list if self.strict else (list, str, dict)):
                self.fail(loc, "iterable_type", value)
            return                           # its items are judged as they are read, after the call starts
        if origin in (set, frozenset) or name in ("Set", "FrozenSet"):
            frozen = origin is frozenset or name == "FrozenSet"
            return self._items(value, item, loc, constraints, namespace,
                               "frozen_set_type" if frozen else "set_type", "Frozenset" if frozen else "Set")
        if origin is tuple or name == "Tuple":
            return self._tuple(value, args, loc, namespace)
        if origin is dict or name in ("Dict", "Mapping", "MutableMapping"):
            if not isinstance(value, dict):
                return self.fail(loc, "dict_type", value)
            for key, each in value.items():
                self.check(each, args[1] if len(args) == 2 else _EMPTY, loc + (key,), None, namespace)
            return
        raise _Unworded()

    def _sequence(self, value, item, loc: tuple, constraints: dict, namespace: dict) -> None:
        if self.strict:                      # JSON mode: a Sequence is a list
            return self._items(value, item, loc, constraints, namespace, "list_type", "List")
        if isinstance(value, str):
            return self.fail(loc, "sequence_str", value)
        if not isinstance(value, list):
            return self.fail(loc, "is_instance_of", value, "Sequence")
        return self._items(value, item, loc, constraints, namespace, "list_type", "List")

    def _boolean(self, value, loc: tuple, strict: bool) -> None:
        if isinstance(value, bool):
            return
        if strict:
            return self.fail(loc, "bool_type", value)
        if isinstance(value, int):
            if value not in (0, 1):
                self.fail(loc, "bool_parsing", value)
        elif isinstance(value, float):
            if value not in (0.0, 1.0):
                self.fail(loc, "bool_type", value)
        elif isinstance(value, str):
            if value.lower() not in _LAX_BOOLEANS:
                self.fail(loc, "bool_parsing", value)
        else:
            self.fail(loc, "bool_type", value)

    def _integer(self, value, loc: tuple, constraints: dict, strict: bool) -> None:
        import re
        if isinstance(value, int) and not (strict and isinstance(value, bool)):
            number = int(value)
        elif strict:
            return self.fail(loc, "int_type", value)
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                return self.fail(loc, "finite_number", value)
            if not value.is_integer():
                return self.fail(loc, "int_from_float", value)
            if not -2 ** 63 <= value < 2 ** 63:
                return self.fail(loc, "int_parsing_size", value)
            number = int(value)
        elif isinstance(value, str):
            digits = re.fullmatch(r"\s*([+-]?[0-9]+(?:_[0-9]+)*)(?:\.0*)?\s*", value)
            if digits is None:
                return self.fail(loc, "int_parsing", value)
            number = int(digits.group(1))
        else:
            return self.fail(loc, "int_type", value)
        self._bounds(number, value, loc, constraints)

    def _number(self, value, loc: tuple, constraints: dict, strict: bool) -> None:
        if isinstance(value, (int, float)) and not (strict and isinstance(value, bool)):
            number = float(value)
        elif strict or not isinstance(value, str):
            return self.fail(loc, "float_type", value)
        else:
            try:
                number = float(value)
            except ValueError:
                return self.fail(loc, "float_parsing", value)
        if constraints.get("allow_inf_nan") is False and (number != number or abs(number) == float("inf")):
            return self.fail(loc, "finite_number", value)
        self._bounds(number, value, loc, constraints)

    def _bounds(self, number, value, loc: tuple, constraints: dict) -> None:
        """gt/ge/lt/le/multiple_of, in pydantic-core's order (the first that fails is reported)."""
        step = constraints.get("multiple_of")
        if step is not None and step and (number % step if isinstance(number, int) and isinstance(step, int)
                                          else abs(number / step - round(number / step)) > 1e-9):
            return self.fail(loc, "multiple_of", value, _pydantic_number(step))
        for key, kind, fails in (("le", "less_than_equal", lambda n, b: n > b),
                                 ("lt", "less_than", lambda n, b: n >= b),
                                 ("ge", "greater_than_equal", lambda n, b: n < b),
                                 ("gt", "greater_than", lambda n, b: n <= b)):
            bound = constraints.get(key)
            if bound is not None and fails(number, bound):
                return self.fail(loc, kind, value, _pydantic_number(bound))

    def _string(self, value, loc: tuple, constraints: dict) -> None:
        if not isinstance(value, str):
            return self.fail(loc, "string_type", value)
        low, high, pattern = constraints.get("min_length"), constraints.get("max_length"), constraints.get("pattern")
        if low is not None and len(value) < low:
            return self.fail(loc, "string_too_short", value, low, "" if low == 1 else "s")
        if high is not None and len(value) > high:
            return self.fail(loc, "string_too_long", value, high, "" if high == 1 else "s")
        if pattern is not None:
            import re
            text = getattr(pattern, "pattern", pattern)
            if re.search(text, value) is None:
                self.fail(loc, "string_pattern_mismatch", value, text)

    def _union(self, value, args: tuple, loc: tuple, constraints: dict, namespace: dict) -> None:
        members = [a for a in args if a is not type(None)]
        if len(members) < len(args) and value is None:
            return                                # Optional[...]: pydantic's nullable, None passes
        if len(members) == 1:
            return self.check(value, members[0], loc, constraints, namespace)
        found = []
        for member in members:
            trial = _PydanticJudge(namespace, self.strict)
            trial.check(value, member, loc + (_pydantic_label(member, namespace),), constraints, namespace)
            if not trial.errors:
                return                            # one member takes it: the union does
            found += trial.errors
        self.errors += found

    def _items(self, value, item, loc: tuple, constraints: dict, namespace: dict, kind: str, noun: str) -> None:
        if not isinstance(value, list):
            return self.fail(loc, kind, value)
        low, high = constraints.get("min_length"), constraints.get("max_length")
        if high is not None and len(value) > high:
            return self.fail(loc, "too_long", value, high, "" if high == 1 else "s", noun, len(value))
        before = len(self.errors)
        for index, each in enumerate(value):
            self.check(each, item, loc + (index,), None, namespace)
        if len(self.errors) == before and low is not None and len(value) < low:
            self.fail(loc, "too_short", value, low, "" if low == 1 else "s", noun, len(value))

    def _tuple(self, value, args: tuple, loc: tuple, namespace: dict) -> None:
        if not isinstance(value, list):
            return self.fail(loc, "tuple_type", value)
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            for index, each in enumerate(value):
                self.check(each, args[0] if args else _EMPTY, loc + (index,), None, namespace)
            return
        fixed = [] if args == ((),) else list(args)
        if len(value) > len(fixed):
            return self.fail(loc, "too_long", value, len(fixed), "" if len(fixed) == 1 else "s", "Tuple", len(value))
        for index, member in enumerate(fixed):
            if index < len(value):
                self.check(value[index], member, loc + (index,), None, namespace)
            else:
                self.fail(loc + (index,), "missing", value)

    def _model(self, value, model, loc: tuple) -> None:
        if not isinstance(value, dict):
            return self.fail(loc, "model_type", value, model.__name__)
        known = set()
        for name, field in model.model_fields.items():
            key = field.alias or name
            known.update((key, name))
            if key in value:
                self.check(value[key], field.annotation, loc + (key,), self._field_constraints(field))
            elif field.is_required():
                self.fail(loc + (key,), "missing", value)
        if (getattr(model, "model_config", None) or {}).get("extra") == "forbid":
            for key in value:
                if key not in known:
                    self.fail(loc + (key,), "extra_forbidden", value[key])

    def _field_constraints(self, field) -> dict:
        constraints = {}
        _, constraints = _pydantic_unwrap(_field_annotation(_EMPTY, field), {}, constraints)
        return constraints

    def _dataclass(self, value, cls, loc: tuple) -> None:
        import dataclasses
        if not isinstance(value, dict):
            return self.fail(loc, "dataclass_type", value, cls.__name__)
        hints, namespace = _class_hints(cls), _class_namespace(cls)
        for field in dataclasses.fields(cls):
            if field.name in value:
                self.check(value[field.name], hints.get(field.name, field.type), loc + (field.name,), None, namespace)
            elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                self.fail(loc + (field.name,), "missing", value)

    def _typeddict(self, value, cls, loc: tuple) -> None:
        if not isinstance(value, dict):
            return self.fail(loc, "dict_type", value)
        hints, namespace = _class_hints(cls), _class_namespace(cls)
        required = getattr(cls, "__required_keys__", set(hints) if cls.__total__ else ())
        for key, hint in hints.items():
            if key in value:
                self.check(value[key], hint, loc + (key,), None, namespace)
            elif key in required:
                self.fail(loc + (key,), "missing", value)


def _pydantic_report(title: str, errors: list) -> str:
    """str(ValidationError): a count, then each error's location, words, type, input and link."""
    lines = ["%d validation error%s for %s" % (len(errors), "" if len(errors) == 1 else "s", title)]
    for loc, kind, words, value in errors:
        lines += [_pydantic_loc(loc)] if loc else []          # an error of the whole value has no location line
        lines.append("  %s [type=%s, input_value=%s, input_type=%s]" % (
            words, kind, _pydantic_repr(value), type(value).__name__))
        if kind not in _PYDANTIC_UNLINKED:
            lines.append("    For further information visit https://errors.pydantic.dev/%s/v/%s"
                         % (_pydantic_docs_version(), kind))
    return "\n".join(lines)


def _pydantic_worded(sdk: str):
    """A dialect's argument_wording: invalid arguments as the SDK's pydantic ValidationError says them.

    ``sdk`` is "mcp" (a model named ``<function>Arguments``: "Field required", extra arguments
    ignored, string values pre-parsed as JSON where the parameter is not a str, as mcp's
    func_metadata does) or "fastmcp" (pydantic's arguments schema ``call[<function>]``:
    "Missing required argument", "Unexpected keyword argument"; strict when the server sets
    ``strict_input_validation``). The link names the installed pydantic's major.minor
    (what the SDK would print beside it), or 2.14, the pinned SDKs' pydantic, without one.
    The words are None, keeping the validator's, when a hint is one the emulation cannot judge,
    when the function's parameters are not the schema's, or when pydantic would find nothing.
    """
    def wording(tool, arguments: dict, server=None):
        params = [(n, a, d) for n, a, d in tool.signature.params if n != tool.context_param]
        if set(n for n, _, _ in params) != set((tool.input_schema.get("properties") or {})):
            return None                           # a hand-written inputSchema: pydantic never saw it
        strict = sdk == "fastmcp" and bool(getattr(server, "strict_input_validation", False))
        judge = _PydanticJudge(tool.signature.namespace, strict)
        if sdk == "mcp":
            arguments = _mcp_pre_parsed(params, arguments, tool.signature.namespace)
        try:
            for name, annotation, default in params:
                if _is_field_info(default):       # x: T = Field(...): Annotated[T, Field(...)]
                    annotation, default = _field_annotation(annotation, default), _field_default(default)
                if name in arguments:
                    judge.check(arguments[name], annotation, (name,))
                elif default is _EMPTY:
                    judge.fail((name,), "missing" if sdk == "mcp" else "missing_argument", arguments)
            if sdk == "fastmcp":
                for name in arguments:
                    if name not in dict((n, 1) for n, _, _ in params):
                        judge.fail((name,), "unexpected_keyword_argument", arguments[name])
        except Exception:                         # _Unworded, or a hint nothing here foresaw: never a traceback
            return None
        if not judge.errors:
            return None
        function = getattr(tool.fn, "__name__", None) or tool.name
        return _pydantic_report(("%sArguments" if sdk == "mcp" else "call[%s]") % function, judge.errors)
    return wording


def _mcp_result_worded(tool, value):
    """mcp 1.x's words for a result that fails its annotation: pydantic's report, for the model
    named ``<function>Output`` (the value under "result") or for the class returned; None where
    the emulation cannot judge."""
    try:
        hint = tool.signature.resolve(tool.signature.returns)
        judge = _PydanticJudge(tool.signature.namespace, False)
        if _is_dataclass(hint) and not isinstance(value, (dict, hint)):   # mcp's own model of its fields
            judge.fail((), "model_attributes_type", value)
        else:
            judge.check(value, hint, ("result",) if tool.wrap_result else ())
    except Exception:                             # _Unworded, or a hint nothing here foresaw
        return None
    if not judge.errors:
        return None
    function = getattr(tool.fn, "__name__", None) or tool.name
    return _pydantic_report("%sOutput" % function if tool.wrap_result else getattr(hint, "__name__", function),
                            judge.errors)


def _mcp1_nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}], "default": None}


def _mcp1_content_schemas() -> dict:
    """mcp 1.30.0's schemas of the content blocks (pydantic's, in the shortest form D1 compares)
    and the fields its model_dump fills with null when unset, by the block's type."""
    annotations = _mcp1_nullable({"type": "object", "properties": {
        "audience": _mcp1_nullable({"type": "array", "items": {"enum": ["user", "assistant"], "type": "string"}}),
        "priority": _mcp1_nullable({"type": "number", "minimum": 0.0, "maximum": 1.0})}})
    meta, text, uri = _mcp1_nullable({"type": "object"}), {"type": "string"}, \
        {"type": "string", "format": "uri", "minLength": 1}
    optional_text = _mcp1_nullable(text)

    def block(kind: str, description: str, fields: dict, required: tuple) -> dict:
        properties = dict({"type": {"const": kind, "type": "string"}}, **fields, annotations=annotations, _meta=meta)
        return {"description": description, "type": "object", "properties": properties, "required": list(required)}

    def contents(description: str, field: str) -> dict:
        return {"description": description, "type": "object", "required": ["uri", field],
                "properties": {"uri": uri, "mimeType": optional_text, "_meta": meta, field: text}}

    icon = {"description": "An icon for display in user interfaces.", "type": "object", "required": ["src"],
            "properties": {"src": text, "mimeType": optional_text,
                           "sizes": _mcp1_nullable({"type": "array", "items": text})}}
    media = "%s content for a message."
    return {
        "text": (block("text", media % "Text", {"text": text}, ("type", "text")), ()),
        "image": (block("image", media % "Image", {"data": text, "mimeType": text}, ("type", "data", "mimeType")), ()),
        "audio": (block("audio", media % "Audio", {"data": text, "mimeType": text}, ("type", "data", "mimeType")), ()),
        "resource": (block("resource", "The contents of a resource, embedded into a prompt or tool call result.\n\n"
                           "It is up to the client how best to render embedded resources for the benefit\n"
                           "of the LLM and/or the user.", {"resource": {"anyOf": [
                               contents("Text contents of a resource.", "text"),
                               contents("Binary contents of a resource.", "blob")]}}, ("type", "resource")), ()),
        "resource_link": (block("resource_link", "A resource that the server is capable of reading, included in a "
                                "prompt or tool call result.\n\nNote: resource links returned by tools are not "
                                "guaranteed to appear in the results of `resources/list` requests.", {
                                    "name": text, "title": optional_text, "uri": uri, "description": optional_text,
                                    "mimeType": optional_text, "size": _mcp1_nullable({"type": "integer"}),
                                    "icons": _mcp1_nullable({"type": "array", "items": icon})},
                                ("name", "uri", "type")),
                          ("name", "title", "uri", "description", "mimeType", "size", "icons")),
    }


def _mcp1_dumped(block: dict, schemas: dict) -> dict:
    """A content block as mcp 1.x's model_dump writes it: every field, null when unset."""
    schema, _ = schemas.get(block.get("type"), (None, ()))
    if schema is None:
        return block
    dumped = {name: block.get(name) for name in schema["properties"]}
    resource = block.get("resource")
    if isinstance(resource, dict):       # the embedded contents: its own fields, null when unset
        dumped["resource"] = dict({"mimeType": None, "_meta": None}, **resource)
    return dumped


def _mcp1_content_structured(hint):
    """mcp 1.x's ``-> list[ImageContent]`` (any content class of mcp.types, or a union of them): an
    outputSchema of those blocks, and the blocks again as {"result": [...]}, each with its unset
    fields as null (pydantic's model_dump). mcp 2.x sends content as content only."""
    origin, args, _ = _typing_parts(hint)
    if origin is not list or len(args) != 1:
        return None
    inner, members, _ = _typing_parts(args[0])
    if not (inner == "union" or repr(inner) == "typing.Union"):
        members = (args[0],)
    schemas = _mcp1_content_schemas()
    kinds = [getattr(m, "kind", None) if isinstance(m, type) and issubclass(m, _SDKModel) else None for m in members]
    if not kinds or any(kind not in schemas for kind in kinds):
        return None
    items = [schemas[kind][0] for kind in kinds]
    return {"type": "array", "items": items[0] if len(items) == 1 else {"anyOf": items}}, \
        lambda block: _mcp1_dumped(block, schemas)


def _mcp_pre_parsed(params: list, arguments: dict, namespace: dict) -> dict:
    """mcp's pre_parse_json: a string for a parameter not annotated ``str`` is read as JSON when
    that gives a list, an object or null (Claude Desktop sends lists as JSON text)."""
    changed = {}
    for name, annotation, _ in params:
        value = arguments.get(name)
        if not isinstance(value, str):
            continue
        try:
            bare, _ = _pydantic_unwrap(annotation, namespace, {})
        except _Unworded:
            bare = None
        if bare is str:
            continue
        try:
            parsed = json.loads(value)
        except ValueError:
            continue
        if not isinstance(parsed, (str, int, float)):
            changed[name] = parsed
    return dict(arguments, **changed) if changed else arguments


class _SDKArgModelBase:
    """mcp's ArgModelBase, the base of every tool's argument model. Servers set its
    ``model_config = ConfigDict(extra="forbid")`` before their tools to refuse unknown arguments."""
    model_config = {}


def _sdk_forbids_extra() -> bool:
    """The mcp rows' closed_input: what ArgModelBase's model_config says when a tool is registered."""
    config = getattr(_SDKArgModelBase, "model_config", None)
    return isinstance(config, dict) and config.get("extra") == "forbid"


def _mcp2_resource_failure(exc: Exception, uri: str, template: bool) -> str:
    """mcp 2.3.0's words for a resource function that raised: ResourceError's own message, else
    the URI alone (the exception is hidden from the client)."""
    if isinstance(exc, _SDKResourceError):
        return str(exc)
    return ("Error creating resource from template %s" if template else "Error reading resource %s") % uri


def _mcp1_resource_failure(exc: Exception, uri: str, template: bool) -> str:
    """mcp 1.30.0's: every exception's message, behind the step that failed (mcp 1.x says code 0;
    the error's code stays the spec's -32603)."""
    if template:             # wrapped twice: by the template, then by the resource manager
        return "Error creating resource from template: Error creating resource from template: %s" % exc
    return "Error reading resource %s: %s" % (uri, exc)


def _fastmcp_resource_failure(exc: Exception, uri: str, template: bool) -> str:
    """fastmcp 4.2.3's: its own errors' messages as they are, others behind the URI, quoted."""
    if isinstance(exc, (_SDKResourceError, _SDKToolError)):
        return str(exc)
    return "Error reading resource %r: %s" % (uri, exc)


def _mcp2_prompt_failure(exc: Exception, name: str) -> str:
    """mcp 2.3.0's words for a prompt function that raised: the prompt's name alone (the exception
    is hidden from the client; the SDK says code 0, the error's code stays the spec's -32603)."""
    return "Error rendering prompt %s" % name


def _mcp1_prompt_failure(exc: Exception, name: str) -> str:
    """mcp 1.30.0's: the exception's message behind the prompt's name (code 0 there too)."""
    return "Error rendering prompt %s: %s" % (name, exc)


def _fastmcp_prompt_failure(exc: Exception, name: str) -> str:
    """fastmcp 4.2.3's: its own errors' messages as they are, others behind the name, quoted."""
    if isinstance(exc, (_SDKResourceError, _SDKToolError)):
        return str(exc)
    return "Error rendering prompt %r: %s" % (name, exc)


_SDK_REFUSALS = {"sampling": "Sampling not supported", "elicitation": "Elicitation not supported"}


def _mcp2_undeclared(capability: str, method: str):
    """mcp 2.3.0 refuses a question its client did not declare with an MCPError(-32600), the call's error."""
    said = _SDK_REFUSALS.get(capability.split(".")[0])
    return MCPError(INVALID_REQUEST, said) if said else None


def _mcp1_undeclared(capability: str, method: str):
    """mcp 1.x and fastmcp: the same words, raised in the tool as any failure (an isError result)."""
    said = _SDK_REFUSALS.get(capability.split(".")[0])
    return RuntimeError(said) if said else None


def _fastmcp_result_worded(tool, value):
    """fastmcp 4.2.3 checks only that an object-schema result is an object (else its ToolResult
    refuses it in these words); the rest it sends unchecked (README D11)."""
    if tool.wrap_result or isinstance(value, dict) or tool.attributes is not None or _is_dataclass(type(value)) \
            or _is_pydantic_model(type(value)):
        return None
    return ("structured_content must be a dict or None. Got %s: %r. Tools should wrap non-dict values based on "
            "their output_schema." % (type(value).__name__, value))


def _fastmcp_log_data(message, extra) -> dict:
    """fastmcp's ``await ctx.info(message, extra=...)`` sends its LogData: {"msg": ..., "extra": ...}."""
    return {"msg": message, "extra": extra}


def _sdk_tool_name_warning(name: str) -> None:
    """The SDKs' SEP-986 check of a tool name (mcp.shared.tool_name_validation): a name outside
    the spec's characters or length is registered, after these warnings on the log."""
    said = []
    if not name or len(name) > 128:
        said.append("Tool name cannot be empty" if not name else
                    "Tool name exceeds maximum length of 128 characters (current: %d)" % len(name))
    else:
        said += ["Tool name contains %s, which may cause parsing issues" % what
                 for mark, what in ((" ", "spaces"), (",", "commas")) if mark in name]
        said += ["Tool name starts or ends with a %s, which may cause parsing issues in some contexts" % what
                 for mark, what in (("-", "dash"), (".", "dot")) if name.startswith(mark) or name.endswith(mark)]
        allowed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-."     # SEP-986's
        odd = [c for i, c in enumerate(name) if c not in allowed and c not in name[:i]]
        if odd:
            said += ["Tool name contains invalid characters: %s" % ", ".join(repr(c) for c in odd),
                     "Allowed characters are: A-Z, a-z, 0-9, underscore (_), dash (-), and dot (.)"]
    logger = _sdk_get_logger("mcp.shared.tool_name_validation")
    logger.warning('Tool name validation warning for "%s":', name)
    for line in said:
        logger.warning("  - %s", line)
    logger.warning("Tool registration will proceed, but this may cause compatibility issues.")
    logger.warning("Consider updating the tool name to conform to the MCP tool naming standard.")
    logger.warning("See SEP-986 (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names) "
                   "for more details.")


# The SDK rows of the dialect table, which the core's row (minimcp's own) does not have:
# mcp 2.3.0's whole, then the others as each differs from it. Added, never replacing a row.
_DIALECTS["mcp2"] = _DIALECTS["minimcp"].but(
    "mcp2", docstrings="raw", tool_failure="Error executing tool {name}", tool_error="Error executing tool {name}: {error}",
    told=(_SDKToolError,), unknown_tool="Unknown tool: {name}", argument_error="Error executing tool {name}: {error}",
    argument_wording=_pydantic_worded("mcp"), lax_arguments=True, is_error_always=True, objects="repr",
    text_structured=True, default_mime="text/plain", resource_lists="json",
    missing_resource=("Unknown resource: {uri}", True), unknown_prompt=("Unknown prompt: {name}", False),
    missing_prompt_arguments="Missing required arguments: {missing}",
    default_version="", strict_annotations=False, untyped_schema={"type": "string"},
    closed_input=_sdk_forbids_extra, output_spelling=_pydantic_output("typeddict"),
    non_finite="json", elicit_by_type=_sdk_elicit, unoffered_method="Method not found",
    resource_failure=_mcp2_resource_failure, prompt_failure=_mcp2_prompt_failure, odd_tool_names=_sdk_tool_name_warning,
    undeclared_question=_mcp2_undeclared, annotation_fields={
        "tool": ("title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"),
        "resource": ("audience", "priority", "lastModified")})
_DIALECTS["mcp1"] = _DIALECTS["mcp2"].but(        # mcp 1.30.0, the last 1.x
    "mcp1", annotation_fields=None, tool_failure="Error executing tool {name}: {error}",
    decode_uri_variables=False,
    missing_resource=("Unknown resource: {uri}", False), default_version="1.30.0", lifespan_per_session=True,
    resource_failure=_mcp1_resource_failure, prompt_failure=_mcp1_prompt_failure, undeclared_question=_mcp1_undeclared,
    mcp_error_fails=True,
    result_wording=_mcp_result_worded, content_structured=_mcp1_content_structured,
    output_spelling=_pydantic_output(False))
_DIALECTS["fastmcp"] = _DIALECTS["mcp2"].but(     # fastmcp 4.2.3
    "fastmcp", docstrings=_fastmcp_docstring, tool_failure="Error calling tool {name!r}: {error}",
    tool_error="{error}",
    unknown_tool="Unknown tool: {name!r}", argument_error="{error}", list_blocks="json", compact_json=True,
    argument_wording=_pydantic_worded("fastmcp"),
    dict_structured=True, class_structured=False,
    missing_resource=("Resource not found: {uri!r}", True), unknown_prompt=("Unknown prompt: {name!r}", False),
    default_version="4.2.3", describe_extra=_fastmcp_listing, result_meta={"fastmcp": {"wrap_result": True}},
    untyped_schema=None, closed_input=True, meta_in_results=True, output_spelling=_pydantic_output(True),
    wrap_by_schema=True, non_finite=_fastmcp_finite, resource_failure=_fastmcp_resource_failure,
    prompt_failure=_fastmcp_prompt_failure,
    undeclared_question=_mcp1_undeclared, mcp_error_fails=True, log_data=_fastmcp_log_data,
    result_wording=_fastmcp_result_worded)


def _sdk_get_logger(name: str):
    """The SDKs' ``get_logger(__name__)``: a standard logger (minimcp logs to stderr)."""
    import logging
    return logging.getLogger(name)


def _sdk_names() -> dict:
    """The names the alias modules export, with the SDK's spellings (made once)."""
    if "names" not in _SDK_CACHE:
        _SDK_CACHE["names"] = {
            "Context": Context, "get_logger": _sdk_get_logger, "ArgModelBase": _SDKArgModelBase,
            "Image": Image, "Audio": Audio,
            "ToolError": _SDKToolError, "ResourceError": _SDKResourceError, "Message": _SDKMessage,
            "UserMessage": _sdk_role_message("UserMessage", "user"), "PromptMessage": _SDKPromptMessage,
            "AssistantMessage": _sdk_role_message("AssistantMessage", "assistant"),
            "ToolAnnotations": _SDKToolAnnotations,
            # Servers build it at import for the constructor, which ignores it: minimcp's HTTP
            # transport checks Host and Origin itself (wsgi_app's allowed_hosts, allowed_origins).
            "TransportSecuritySettings": _sdk_model("TransportSecuritySettings", "Accepted and ignored."),
        }
        _SDK_CACHE["names"].update(_sdk_types())                # mcp.types' models, typed
        _SDK_CACHE["names"].update(_sdk_lowlevel_names())        # the low-level Server and its helpers
        for name, value in _SDK_CACHE["names"].items():
            if isinstance(value, type) and value.__name__.startswith("_SDK"):
                value.__name__ = value.__qualname__ = name        # tracebacks say ToolError, as the SDK's
    return _SDK_CACHE["names"]


_CLIENT_HINT = ("minimcp.TestClient(server) drives a server in-process, and "
                "`python3 minimcp.py call TOOL -- CMD...` a server process")
_TRANSPORT_HINT = "minimcp serves stdio (server.run()) and Streamable HTTP as a WSGI app (server.wsgi_app())"
_SDK_SSE_HINT = ("minimcp has no HTTP+SSE transport (2024-11-05's, deprecated since 2025-03-26): serve "
                 "Streamable HTTP, which clients speak, with streamable_http_app() (fastmcp: http_app()), or "
                 "run `python3 minimcp.py serve --http PORT FILE`")
_SDK_HINTS = (   # (a prefix of the dotted name, or its last part, or "()": what to do instead); first match wins
    ("mcp.shared.memory", "to test a server without a process, use minimcp.TestClient(server)"),
    ("mcp.client", _CLIENT_HINT), ("fastmcp.client", _CLIENT_HINT), ("Client", _CLIENT_HINT),
    ("ClientSession", _CLIENT_HINT),
    ("sse_app()", _SDK_SSE_HINT), ("run_sse_async", _SDK_SSE_HINT), ("http_app(transport='sse')", _SDK_SSE_HINT),
    ("()", "minimcp serves Streamable HTTP as a WSGI app: app = server.wsgi_app(), or run "
           "`python3 minimcp.py serve --http PORT FILE`"),
    ("mcp.server.stdio", _TRANSPORT_HINT), ("mcp.server.sse", _TRANSPORT_HINT),
    ("mcp.server.streamable_http", _TRANSPORT_HINT), ("mcp.server.websocket", _TRANSPORT_HINT),
)


def _sdk_unusable(what: str) -> str:
    """What a placeholder says when used: what it is, and what to do instead."""
    root = what.split(".")[0]
    last = what.rsplit(".", 1)[-1]
    hint = next((h for key, h in _SDK_HINTS if what.startswith(key + ".") or what == key or last == key
                 or (key == "()" and what.endswith(key))), "write that part with minimcp's own API (README)")
    return ("%s is part of the %s package, which is not installed; minimcp stands in for its names so that "
            "this server imports, but does not implement this one. Install the real package to use it "
            "(pip install %s); without it, %s." % (what, root, root, hint))


def _sdk_build_placeholders() -> tuple:
    """The placeholders: what a public SDK name minimcp does not implement turns into."""
    class _SDKUnavailable(ImportError):
        """A public SDK name that minimcp does not implement was used."""

    class _SDKPlaceholderType(type):
        """A public SDK name minimcp cannot implement: it imports, and fails when used.

        It is a class, so ``class Mine(Placeholder)`` and annotations still work at import time;
        calling or instantiating it, or reading an attribute, says what it is and what to do.
        """

        def __call__(cls, *args, **kwargs):
            raise _SDKUnavailable(_sdk_unusable(cls._sdk_what))

        def __getattr__(cls, name: str):
            if name.startswith("__"):
                raise AttributeError(name)
            raise AttributeError(_sdk_unusable(cls._sdk_what + "." + name))

        def __getitem__(cls, parameters):         # RequestContext[ServerSession, Any] in an annotation
            return cls

    class _SDKMissingMember:
        """A server member minimcp lacks; what an instance sets itself (name, settings) wins over it."""

        def __init__(self, what: str) -> None:
            self.what = what

        def __get__(self, instance, owner=None):
            return _sdk_placeholder(self.what)

    return _SDKUnavailable, _SDKPlaceholderType, _SDKMissingMember


def _sdk_build_component() -> type:
    """``Tool.from_function(fn)`` and the like: what servers build to hand to add_tool and its kin."""
    class _SDKComponent:
        """A tool, resource or prompt made from a function (``Tool.from_function(fn, name=...)``).

        Servers hand it to ``add_tool``/``add_resource``/``add_prompt``, which register the
        function with its options.
        """
        kind, positional = "tool", ()

        def __init__(self, fn=None, **options) -> None:
            self.fn, self.options = fn, options

        @classmethod
        def from_function(cls, fn, *args, **options) -> "_SDKComponent":
            """The component for ``fn``; positional arguments as the SDK takes them (a resource's uri)."""
            options.update(zip(cls.positional, args))
            return cls(fn, **options)

        @classmethod
        def from_tool(cls, tool, transform_fn=None, transform_args=None, **options) -> "_SDKComponent":
            """fastmcp's ``Tool.from_tool(tool, name=..., description=...)``: the same function under
            new options. Rewriting its arguments (``transform_args``, ``transform_fn``) is not emulated."""
            if transform_fn is not None or transform_args:
                raise NotImplementedError("Tool.from_tool(..., transform_args=/transform_fn=) rewrites a tool's "
                                          "arguments, which minimcp does not emulate: register a function with "
                                          "the arguments you want instead")
            return cls(tool.fn, **dict(tool.options, **{k: v for k, v in options.items() if v is not None}))

        @property
        def name(self) -> str:
            return self.options.get("name") or getattr(self.fn, "__name__", None)

        def __repr__(self) -> str:
            return "%s(%r)" % (type(self).__name__, self.name)
    return _SDKComponent


def _sdk_build_server_surface(component_class: type) -> type:
    """What servers call on the SDK's server class beyond its decorators."""
    class _SDKServerSurface:
        """What servers call on the SDK's server class beyond its decorators: ``add_tool(Tool)``, ..."""

        def _sdk_register(self, kind: str, component, options: dict):
            if isinstance(component, component_class):
                options = dict(component.options, **options)
                fn = component.fn if component.fn is not None else options.get("text", options.get("data"))
            else:
                fn = component
            keep = {k: _sdk_json(v) for k, v in options.items() if k in _SDK_SERVER_OPTIONS[kind] and v is not None}
            if kind == "resource":
                uri = options.get("uri") or options.get("uri_template")
                if uri is None:
                    raise TypeError("add_resource() needs the resource's uri")
                return getattr(super(), "add_resource")(fn, str(uri), **keep)
            return getattr(super(), "add_" + kind)(fn, **keep)

        def add_tool(self, tool, **options):
            """Register a function, or a ``Tool.from_function(...)``, as a tool."""
            return self._sdk_register("tool", tool, options)

        def add_resource(self, resource, uri: str = None, **options):
            """Register a ``Resource.from_function(fn, uri)`` (or a function and its uri)."""
            return self._sdk_register("resource", resource, dict(options, **({"uri": uri} if uri else {})))

        def add_prompt(self, prompt, **options):
            """Register a function, or a ``Prompt.from_function(...)``, as a prompt."""
            return self._sdk_register("prompt", prompt, options)

        def custom_route(self, path: str, methods: list = None, **options):
            """Accepted so that the server starts; minimcp serves no routes besides MCP's own."""
            def decorator(fn):
                sys.stderr.write("minimcp: custom_route(%r) is not served (minimcp serves MCP's endpoint only)\n"
                                 % path)
                return fn
            return decorator

    return _SDKServerSurface


def _sdk_build() -> None:
    """Define the stand-in classes below, once, when a server first imports an SDK name.

    A class statement costs ``import minimcp`` time, and most programs never import the SDK.
    """
    global _SDKUnavailable, _SDKPlaceholderType, _SDKComponent, _SDKServerSurface, _SDKMissingMember
    if "built" in _SDK_CACHE:
        return
    _SDK_CACHE["built"] = True

    _SDKUnavailable, _SDKPlaceholderType, _SDKMissingMember = _sdk_build_placeholders()
    _SDKComponent = _sdk_build_component()
    _SDKServerSurface = _sdk_build_server_surface(_SDKComponent)
    for cls in (_SDKUnavailable, _SDKPlaceholderType, _SDKComponent, _SDKServerSurface, _SDKMissingMember):
        cls.__qualname__ = cls.__name__


def _sdk_placeholder(what: str) -> type:
    module, _, name = what.rpartition(".")
    return _SDKPlaceholderType(name, (), {"_sdk_what": what, "__module__": module, "__qualname__": name,
                                          "__doc__": "minimcp's placeholder for %s (not implemented)." % what})


def _sdk_component(name: str, kind: str, positional: tuple = ()) -> type:
    return type(name, (_SDKComponent,), {"kind": kind, "positional": positional,
                                         "__doc__": "A %s made from a function, for add_%s()." % (kind, kind)})


def _sdk_app_factory(what: str):
    def factory(self, *args, **kwargs):
        return _sdk_placeholder(what)          # the app explains itself when served
    factory.__name__ = what.rsplit(".", 1)[-1].rstrip("()")
    return factory


def _sdk_server(dialect: str) -> type:
    """The dialect's server class with the SDK's other public members: each one minimcp lacks fails when called."""
    key = "server:" + dialect
    if key not in _SDK_CACHE:
        base = _sdk_server_class(dialect)
        path = {"mcp1": "mcp.server.fastmcp:FastMCP", "mcp2": "mcp.server.mcpserver:MCPServer",
                "fastmcp": "fastmcp:FastMCP"}[dialect]
        attrs = {"__module__": base.__module__, "__doc__": base.__doc__}
        for member in _sdk_table()[1].get(path, "").split():
            if hasattr(base, member) or hasattr(_SDKServerSurface, member) or hasattr(_SDKServerFaces, member):
                continue
            what = "%s.%s" % (path.replace(":", "."), member)
            if member.endswith("_app"):
                attrs[member] = _sdk_app_factory(what + "()")
            else:
                attrs[member] = _SDKMissingMember(what)
        attrs.update(_sdk_http_members(dialect))       # the SDK's ASGI apps, over minimcp's app.asgi
        attrs.update(_sdk_face_handlers(base))
        _SDK_CACHE[key] = type(path.split(":")[1], (_SDKServerFaces, _SDKServerSurface, base), attrs)
    return _SDK_CACHE[key]


def _sdk_table() -> tuple:
    """The generated table: ({module: its names, unparsed}, {"module:Class": members, unparsed}, pins).

    It is the comment block between the <sdk-surface> markers, read from this file's source on
    the first SDK import: as a comment it costs ``import minimcp`` nothing. A module's names are
    parsed when that module is imported (_sdk_exports).
    """
    _sdk_build()
    if "table" not in _SDK_CACHE:
        try:
            with open(__file__, encoding="utf-8") as f:
                source = f.read()
        except OSError:                                        # a zip app has no file to open
            source = __loader__.get_source(__name__) or ""
        start, end = source.find("\n# <sdk-surface>"), source.find("\n# </sdk-surface>")
        if start < 0 or end < start:
            raise ImportError("minimcp's table of the SDK's names is missing from %s" % __file__)
        tables, head = ({}, {}), None
        for line in source[start:end].split("\n#| ")[1:]:     # "module: names", "module:Class: members"
            line = line.split("\n", 1)[0]
            if line[:1] == " ":                                # a continued line
                tables[":" in head][head] += line
            else:
                head, _, rest = line.partition(": ")
                head = head.rstrip(":")
                tables[":" in head][head] = rest
        pins = dict(pin.split(" ", 1) for pin in tables[0].pop("pins").split("; "))
        _SDK_CACHE["table"] = tables[0], tables[1], pins
    return _SDK_CACHE["table"]


# Private modules of the SDK that its own example servers import, with their names (as the table
# writes them): mcp's HTTP client factory (simple-tool fetches with it).
_SDK_PRIVATE_MODULES = {"mcp.shared._httpx_utils": "create_mcp_http_client MCP_DEFAULT_TIMEOUT=30 "
                                                   "MCP_DEFAULT_SSE_READ_TIMEOUT=300"}


def _sdk_modules() -> dict:
    """Each alias module, and its public names unparsed (see _sdk_exports)."""
    return _sdk_table()[0]


def _sdk_http_client(headers: dict = None, timeout=None, auth=None):
    """mcp's create_mcp_http_client: an httpx.AsyncClient that follows redirects, 30 s timeouts
    (5 minutes to read). httpx is the server's own dependency."""
    import httpx
    return httpx.AsyncClient(follow_redirects=True, headers=headers, auth=auth,
                             timeout=timeout if timeout is not None else httpx.Timeout(30.0, read=300.0))


def _sdk_exports(module: str) -> dict:
    """A module's public names: {name: the SDK's constant value, the builtin type it aliases, or None}."""
    import builtins
    key = "exports:" + module
    if key not in _SDK_CACHE:
        names = {}
        listed = _sdk_modules()
        words = listed[module] if module in listed else _SDK_PRIVATE_MODULES[module]
        for word in words.split():
            name, _, value = word.partition("=")
            if value[:1] == "'":
                names[name] = value[1:-1]
            elif value.isidentifier():                  # EventId=str: the SDK's alias of a builtin type
                names[name] = getattr(builtins, value)
            else:
                names[name] = int(value) if value else None
        _SDK_CACHE[key] = names
    return _SDK_CACHE[key]


_SDK_COMPONENTS = {"Tool": ("tool", ()), "FunctionTool": ("tool", ()), "Prompt": ("prompt", ()),
                   "FunctionPrompt": ("prompt", ()), "Resource": ("resource", ("uri",)),
                   "TextResource": ("resource", ("uri",)), "BinaryResource": ("resource", ("uri",)),
                   "FunctionResource": ("resource", ("uri",)), "ResourceTemplate": ("resource", ("uri_template",)),
                   "FunctionResourceTemplate": ("resource", ("uri_template",))}


def _sdk_value(module: str, name: str):
    """What ``module.name`` is under minimcp: backed by minimcp, the SDK's constant (or the builtin type
    its alias names), or a placeholder."""
    value = _sdk_exports(module)[name]
    if value is not None:
        return value
    if (module, name) in _SDK_MODULE_NAMES:
        return _SDK_MODULE_NAMES[module, name]
    framework = module.startswith(("fastmcp", "mcp.server.fastmcp", "mcp.server.mcpserver"))
    if name == "FastMCP" and module.startswith("fastmcp"):
        return _sdk_server("fastmcp")
    if name == "MCPServer" and module.startswith("mcp"):
        return _sdk_server("mcp2")
    if name == "FastMCP":
        return _sdk_server("mcp1")
    if name == "Server" and module.startswith("mcp.server"):
        return _sdk_lowlevel_server()
    if name in _SDK_COMPONENTS and framework:
        key = "component:" + name
        if key not in _SDK_CACHE:
            _SDK_CACHE[key] = _sdk_component(name, *_SDK_COMPONENTS[name])
        return _SDK_CACHE[key]
    names = _sdk_names()
    if name in names:
        return names[name]
    return _sdk_placeholder(module + "." + name)


def _sdk_refusal(module: str, name: str = None) -> ImportError:
    root = module.split(".")[0]
    what = "%s.%s" % (module, name) if name else module
    pins = _sdk_table()[2].get(root, "")
    return ModuleNotFoundError(
        "%s is not a public name of the %r package (%s), which is not installed; minimcp, which stands in "
        "for its public names, has none by that name. Install the real package (pip install %s), or write "
        "it with minimcp." % (what, root, pins, root), name=what)     # the name lets `from X import Y` say
                                                                     # "cannot import name", as Python does


def _sdk_listed(fullname: str) -> str:
    """The module of the table that ``fullname`` is: mcp 2.3 ships mcp.types as the package
    mcp_types too (mcp.types re-exports it), which servers import directly."""
    head, dot, rest = fullname.partition(".")
    return "mcp.types" + dot + rest if head == "mcp_types" else fullname


class _SDKFinder:
    """Finds the alias modules; at the end of sys.meta_path, after every real package."""

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname.split(".")[0] not in ("mcp", "fastmcp", "mcp_types"):
            return None
        if _sdk_listed(fullname) not in _sdk_modules() and fullname not in _SDK_PRIVATE_MODULES:
            raise _sdk_refusal(fullname)
        import importlib.machinery
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        fullname = _sdk_listed(module.__name__)
        exported = _sdk_exports(fullname)
        module.__all__ = sorted(exported)
        module.__path__ = []
        module.__doc__ = "minimcp's stand-in for %s: its public names, each built when first read." % fullname

        def __getattr__(name: str):
            # Names are built when first read: a placeholder costs nothing until a server imports it.
            if name in exported:
                value = module.__dict__[name] = _sdk_value(fullname, name)
                return value
            if fullname + "." + name in _sdk_modules():          # from PKG import submodule
                import importlib
                return importlib.import_module(module.__name__ + "." + name)
            if name.startswith("__"):
                raise AttributeError(name)
            raise AttributeError(str(_sdk_refusal(fullname, name)))
        module.__getattr__ = __getattr__


# The SDK's low-level Server ---------------------------------------------------------
#
# mcp's ``Server`` (mcp.server.lowlevel) has its author answer each method with a function of
# their own: mcp 1.x registers them with decorators (``@server.list_tools()``), mcp 2.x passes
# them to the constructor (``on_list_tools=...``). They are coroutines written for the event
# loop the script starts (``asyncio.run(main())``, ``anyio.run``, trio), and its lifespan makes
# what they share on that loop. So minimcp serves the connection on its threads as always, and
# runs each handler's coroutine on that loop (_SDKLoop). The methods a Server answers itself
# answer as the SDK's do; the rest (initialize, ping, cancellation, revisions, malformed input)
# is the core's, and what the decorator API registers on it (``@server.tool()``, which the
# SDK's Server lacks but tutorials write) is served as MCPServer serves it.

_SDK_ON = {   # mcp 2.x's constructor keyword -> (the method its handler answers, its params' model)
    "on_list_tools": ("tools/list", "PaginatedRequestParams"),
    "on_call_tool": ("tools/call", "CallToolRequestParams"),
    "on_list_resources": ("resources/list", "PaginatedRequestParams"),
    "on_list_resource_templates": ("resources/templates/list", "PaginatedRequestParams"),
    "on_read_resource": ("resources/read", "ReadResourceRequestParams"),
    "on_subscribe_resource": ("resources/subscribe", "SubscribeRequestParams"),
    "on_unsubscribe_resource": ("resources/unsubscribe", "UnsubscribeRequestParams"),
    "on_list_prompts": ("prompts/list", "PaginatedRequestParams"),
    "on_get_prompt": ("prompts/get", "GetPromptRequestParams"),
    "on_completion": ("completion/complete", "CompleteRequestParams"),
    "on_set_logging_level": ("logging/setLevel", "SetLevelRequestParams"),
    "on_ping": ("ping", "RequestParams"),
    "on_progress": ("notifications/progress", "ProgressNotificationParams"),
    "on_roots_list_changed": ("notifications/roots/list_changed", "NotificationParams"),
}
# The capability each kind of handler offers (the core asks _offers before it admits a method).
_SDK_OFFERED = {"tools": ("tools/list", "tools/call"), "prompts": ("prompts/list", "prompts/get"),
                "resources": ("resources/list", "resources/templates/list", "resources/read", "resources/subscribe",
                              "resources/unsubscribe"),
                "completions": ("completion/complete",)}
# Methods whose state the core keeps as well (the client's log level, its subscriptions): the
# core's handler runs first, then the server's.
_SDK_CORE_TOO = frozenset(["logging/setLevel", "resources/subscribe", "resources/unsubscribe"])


class _SDKLoop:
    """The event loop a low-level Server's handlers run on: the script's, or one of minimcp's own."""

    def __init__(self, loop=None, trio_token=None) -> None:
        self.loop, self.trio_token = loop, trio_token

    @classmethod
    def running(cls) -> "_SDKLoop":
        """The loop the calling coroutine runs on (trio's, where trio runs it; else asyncio's)."""
        trio = sys.modules.get("trio")
        if trio is not None:
            try:
                return cls(trio_token=trio.lowlevel.current_trio_token())
            except RuntimeError:
                pass
        import asyncio
        return cls(loop=asyncio.get_running_loop())

    @classmethod
    def own(cls) -> "_SDKLoop":
        """A new asyncio loop, run by a daemon thread until ``stop()``."""
        import asyncio
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, name="minimcp-sdk-loop", daemon=True).start()
        return cls(loop=loop)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)

    async def in_thread(self, fn, *args):
        """Await ``fn(*args)``, which blocks, run on a thread of its own while the loop goes on.

        A daemon thread rather than the loop's executor: ``asyncio.run`` waits for its executor
        at exit, and serving waits on stdin.
        """
        if self.trio_token is not None:
            import trio
            return await trio.to_thread.run_sync(fn, *args)
        loop, future = self.loop, self.loop.create_future()

        def settle(value, error) -> None:
            if not future.done():
                future.set_exception(error) if error is not None else future.set_result(value)

        def work() -> None:
            try:
                value, error = fn(*args), None
            except BaseException as exc:         # (handed to the awaiting coroutine)
                value, error = None, exc
            try:
                loop.call_soon_threadsafe(settle, value, error)
            except RuntimeError:                 # the loop has closed: nobody waits any more
                pass
        threading.Thread(target=work, name="minimcp-sdk-wait", daemon=True).start()
        return await future

    def run(self, call, coroutine_function, *args):
        """From a worker thread: run ``coroutine_function(*args)`` on the loop and wait for it.

        Cancelling ``call`` cancels the coroutine (``Cancelled`` is raised here).
        """
        if self.trio_token is not None:
            import trio
            return trio.from_thread.run(coroutine_function, *args, trio_token=self.trio_token)
        import asyncio
        import concurrent.futures
        future = asyncio.run_coroutine_threadsafe(coroutine_function(*args), self.loop)
        if call is not None:
            call.on_cancel.append(future.cancel)
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise Cancelled(call.cancel_reason if call is not None and call.cancel_reason else "cancelled") from None
        finally:
            if call is not None:
                call.on_cancel.remove(future.cancel)

    def spawn(self, coroutine_function, *args) -> None:
        """Start ``coroutine_function(*args)`` on the loop without waiting (notification handlers)."""
        if self.trio_token is not None:
            self.run(None, coroutine_function, *args)
            return
        import asyncio
        asyncio.run_coroutine_threadsafe(coroutine_function(*args), self.loop)


def _sdk_request_var():
    """The context variable behind ``server.request_context`` (set while a handler runs)."""
    if "request" not in _SDK_CACHE:
        import contextvars
        _SDK_CACHE["request"] = contextvars.ContextVar("request_ctx")
    return _SDK_CACHE["request"]


class _SDKNoLifespan:
    """The SDK's default lifespan: it yields an empty dict."""

    def __init__(self, server=None) -> None:
        pass

    async def __aenter__(self) -> dict:
        return {}

    async def __aexit__(self, *exc_info) -> bool:
        return False


class _SDKServerSession:
    """``request_context.session``: the SDK's ServerSession, whose methods are coroutines.

    Notifications are written at once. What waits for the client's answer (sampling,
    elicitation, roots, ping) waits on a thread, so the loop serves other calls meanwhile.
    """

    def __init__(self, context: Context, loop: _SDKLoop) -> None:
        self._context, self._loop, self._session = context, loop, context.session

    @property
    def client_params(self):
        """What the client said at initialize: capabilities, clientInfo, protocolVersion."""
        return _sdk_types()["InitializeRequestParams"](
            protocolVersion=self._context.protocol_version, capabilities=self._context.client_capabilities,
            clientInfo=self._context.client_info)

    def check_client_capability(self, capability) -> bool:
        return self._session.check_client_capability(capability)

    async def send_log_message(self, level: str, data, logger: str = None, related_request_id=None) -> None:
        self._context.log(level, data, logger)

    async def send_progress_notification(self, progress_token, progress: float, total: float = None,
                                         message: str = None, related_request_id=None) -> None:
        self._context.progress(progress, total, message)    # the request's own token is the one it names

    async def send_resource_updated(self, uri) -> None:
        self._session.send_resource_updated(str(uri))

    async def send_tool_list_changed(self) -> None:
        self._session.send_tool_list_changed()

    async def send_prompt_list_changed(self) -> None:
        self._session.send_prompt_list_changed()

    async def send_resource_list_changed(self) -> None:
        self._session.send_resource_list_changed()

    async def create_message(self, messages, *, max_tokens: int, **options):
        import functools
        return await self._loop.in_thread(functools.partial(self._session.create_message, messages, max_tokens,
                                                            **options))

    async def list_roots(self):
        """The client's roots, each ``uri`` as the SDK hands it (``root.uri.path``)."""
        answer = await self._loop.in_thread(self._session.list_roots)
        types = _sdk_types()
        return types["ListRootsResult"](roots=[types["Root"](**dict(root, uri=_sdk_url(root.get("uri"))))
                                               for root in answer.get("roots") or ()])

    async def elicit(self, message: str, requestedSchema=None, related_request_id=None, **options):
        schema = _sdk_json(options.get("requested_schema", requestedSchema))
        answer = await self._loop.in_thread(self._context.elicit, message, schema)
        return _sdk_types()["ElicitResult"](**_sdk_json(answer))

    elicit_form = elicit

    async def send_ping(self):
        await self._loop.in_thread(self._context.ping)
        return _sdk_types()["EmptyResult"]()


def _sdk_request_meta(meta: dict, dialect: str):
    """A request's ``_meta`` as the handler's SDK hands it: mcp 1.x a model (``meta.progressToken``),
    mcp 2.x its ``RequestParamsMeta``, a TypedDict, so a plain dict whose one declared key is
    snake_case (``meta.get("progress_token")``) and whose other keys are as sent."""
    if dialect != "mcp2":
        return _sdk_types()["RequestParamsMeta"](**meta)
    return {("progress_token" if key == "progressToken" else key): value for key, value in meta.items()}


class _SDKRequestContext:
    """``server.request_context`` while a handler runs (mcp 2.x hands it to each handler as ``ctx``):
    the request's id, its ``_meta``, the session to talk to the client, what the lifespan yielded."""

    def __class_getitem__(cls, _types):
        return cls                       # ServerRequestContext[Any, Any] in an annotation

    def __init__(self, server, call) -> None:
        context = Context(call)
        meta = call.params.get("_meta")
        self.request_id, self.method, self.params = call.id, call.method, call.params
        self.meta = _sdk_request_meta(meta, server.dialect.name) if isinstance(meta, dict) else None
        self.session = _SDKServerSession(context, server._sdk_loop)
        self.lifespan_context = self.lifespan = server._sdk_lifespan_value
        self.protocol_version = call.rev.version
        self.request = self.experimental = None          # no HTTP request under stdio; no experimental tasks

    async def close_sse_stream(self) -> None:
        """The SDK's callback (None on stdio) that closes the call's SSE stream for the client to
        poll, replaying what it missed from the server's event store: nothing here, as
        Context.close_sse_stream: minimcp keeps the stream open until the call answers."""

    close_standalone_sse_stream = close_sse_stream      # the same, for the GET stream


class _SDKUrl:
    """The SDK hands a resource handler its uri as pydantic's AnyUrl: not text (``str(uri)`` is; a
    handler's ``uri.startswith(...)`` fails and ``uri == "note://a"`` is False, as there), with
    its parts as attributes."""

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = str(text)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return "AnyUrl(%r)" % self._text

    def __eq__(self, other) -> bool:
        return isinstance(other, _SDKUrl) and other._text == self._text

    def __hash__(self) -> int:
        return hash((_SDKUrl, self._text))

    def _parts(self):
        from urllib.parse import urlsplit
        return urlsplit(self._text)

    scheme = property(lambda self: self._parts().scheme)
    host = property(lambda self: self._parts().hostname)
    port = property(lambda self: self._parts().port)
    path = property(lambda self: self._parts().path or None)
    query = property(lambda self: self._parts().query or None)
    fragment = property(lambda self: self._parts().fragment or None)

    def unicode_string(self) -> str:
        return self._text

    encoded_string = unicode_string


_SDKUrl.__name__ = _SDKUrl.__qualname__ = "AnyUrl"     # as its errors name it ('AnyUrl' object has no ...)


def _sdk_url(uri: str):
    """A resource handler's uri: pydantic's AnyUrl, as the SDK hands it, where the server has
    imported pydantic itself (its own ``Resource(uri=AnyUrl(...))`` then compares equal to
    it); else text with the same parts as attributes. minimcp never imports pydantic."""
    pydantic = sys.modules.get("pydantic")
    if pydantic is not None and isinstance(uri, str):
        try:
            return pydantic.AnyUrl(uri)
        except Exception:                         # not a URL pydantic takes: the SDK refuses it
            pass
    return _SDKUrl(uri)


class _SDKReadResourceContents:
    """What a resource handler of mcp 1.x returns: ``ReadResourceContents(content, mime_type, meta)``."""

    def __init__(self, content, mime_type: str = None, meta: dict = None) -> None:
        self.content, self.mime_type, self.meta = content, mime_type, meta

    def __eq__(self, other) -> bool:
        return isinstance(other, _SDKReadResourceContents) and \
            (other.content, other.mime_type, other.meta) == (self.content, self.mime_type, self.meta)

    def __repr__(self) -> str:
        return "ReadResourceContents(content=%r, mime_type=%r, meta=%r)" % (self.content, self.mime_type, self.meta)


def _sdk_read_contents(uri: str, result) -> list:
    """resources/read's contents from what a 1.x handler returned: text or bytes (deprecated), or an
    iterable of ReadResourceContents; a ReadResourceResult is taken as it is."""
    def entry(data, mime_type, meta):
        if isinstance(data, str):
            made = {"uri": uri, "mimeType": mime_type or "text/plain", "text": data}
        elif isinstance(data, (bytes, bytearray)):
            made = {"uri": uri, "mimeType": mime_type or "application/octet-stream", "blob": _b64(bytes(data))}
        else:
            raise ValueError("Unexpected content type from read_resource: %s" % type(data).__name__)
        if meta is not None:
            made["_meta"] = meta
        return made
    if isinstance(result, (str, bytes, bytearray)):
        return [entry(result, None, None)]
    if isinstance(result, _sdk_types()["ReadResourceResult"]):
        return _sdk_json(result.contents)
    if hasattr(result, "__iter__") and not isinstance(result, dict):
        return [entry(item.content, item.mime_type, getattr(item, "meta", None)) for item in result]
    raise ValueError("Unexpected return type from read_resource: %s" % type(result))


def _sdk_field(item, name: str):
    """A field of a Tool (or its dict) that a list handler returned."""
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


def _sdk_takes_request(func) -> bool:
    """Whether a 1.x list handler takes the request (``async def list_tools(request)``): the SDK
    passes it to a parameter typed as the request, else calls the handler with nothing."""
    return any(default is _EMPTY for _, _, default in _Signature(func).params)


def _sdk_tool_error(text: str) -> dict:
    return {"content": [{"type": "text", "text": text}], "isError": True}


# jsonschema's words for what mcp 1.x's call_tool says of invalid arguments and output
# ("Input validation error: 'url' is a required property"): the first of the shallowest errors,
# as jsonschema's best_match picks it, for the keywords tool schemas use.
def _jsonschema_errors(instance, schema, depth: int = 0):
    """(depth, message) for each way ``instance`` fails ``schema``, in jsonschema's order."""
    if not isinstance(schema, dict):
        return
    kinds = {"object": dict, "array": list, "string": str, "null": type(None)}
    for keyword, value in schema.items():
        if keyword == "type":
            wanted = value if isinstance(value, list) else [value]
            if not any(_jsonschema_is(instance, kind, kinds) for kind in wanted):
                yield depth, "%r is not of type %s" % (instance, ", ".join(repr(k) for k in wanted))
        elif keyword == "required" and isinstance(instance, dict):
            for name in value:
                if name not in instance:
                    yield depth, "%r is a required property" % name
        elif keyword == "properties" and isinstance(instance, dict):
            for name, inner in value.items():
                if name in instance:
                    for found in _jsonschema_errors(instance[name], inner, depth + 1):
                        yield found
        elif keyword == "additionalProperties" and isinstance(instance, dict):
            extra = [k for k in instance if k not in (schema.get("properties") or {})]
            if extra and value is False:
                yield depth, "Additional properties are not allowed (%s %s unexpected)" % (
                    ", ".join(repr(k) for k in extra), "was" if len(extra) == 1 else "were")
            for name in extra if isinstance(value, dict) else ():     # dict[str, int]: each value's schema
                for found in _jsonschema_errors(instance[name], value, depth + 1):
                    yield found
        elif keyword == "items" and isinstance(instance, list) and isinstance(value, dict):
            for item in instance:
                for found in _jsonschema_errors(item, value, depth + 1):
                    yield found
        elif keyword == "enum" and instance not in value:
            yield depth, "%r is not one of %r" % (instance, value)
        elif keyword == "const" and instance != value:
            yield depth, "%r was expected" % (value,)
        elif isinstance(instance, (int, float)) and not isinstance(instance, bool) and keyword in _JSONSCHEMA_BOUNDS:
            test, words = _JSONSCHEMA_BOUNDS[keyword]
            if test(instance, value):
                yield depth, "%r is %s %r" % (instance, words, value)
        elif keyword in ("minLength", "minItems") and isinstance(instance, (str, list)) and len(instance) < value:
            yield depth, "%r %s" % (instance, "should be non-empty" if value == 1 else "is too short")
        elif keyword in ("maxLength", "maxItems") and isinstance(instance, (str, list)) and len(instance) > value:
            yield depth, "%r %s" % (instance, "is expected to be empty" if value == 0 else "is too long")
        elif keyword in ("anyOf", "oneOf") and isinstance(value, list):
            if not any(next(_jsonschema_errors(instance, option), None) is None for option in value):
                yield depth + 0.5, "%r is not valid under any of the given schemas" % (instance,)


_JSONSCHEMA_BOUNDS = {
    "minimum": (lambda x, bound: x < bound, "less than the minimum of"),
    "maximum": (lambda x, bound: x > bound, "greater than the maximum of"),
    "exclusiveMinimum": (lambda x, bound: x <= bound, "less than or equal to the minimum of"),
    "exclusiveMaximum": (lambda x, bound: x >= bound, "greater than or equal to the maximum of"),
}


def _jsonschema_is(instance, kind: str, kinds: dict) -> bool:
    if kind in ("integer", "number"):
        if isinstance(instance, bool) or not isinstance(instance, (int, float)):
            return False
        return kind == "number" or isinstance(instance, int) or instance.is_integer()
    if kind == "boolean":
        return isinstance(instance, bool)
    return kind in kinds and isinstance(instance, kinds[kind])


def _jsonschema_problem(instance, schema):
    """What jsonschema's ``validate`` says of ``instance`` (None if it is valid)."""
    best = None
    for depth, message in _jsonschema_errors(instance, schema):
        if best is None or depth < best[0]:
            best = (depth, message)
    return None if best is None else best[1]


class _SDKNotificationOptions:
    """Which list changes the server will announce (mcp's NotificationOptions)."""

    def __init__(self, prompts_changed: bool = False, resources_changed: bool = False,
                 tools_changed: bool = False) -> None:
        self.prompts_changed, self.resources_changed = prompts_changed, resources_changed
        self.tools_changed = tools_changed


class _SDKInitializationOptions:
    """What a low-level Server says at initialize: its name and version, capabilities, instructions."""

    FIELDS = ("server_name", "server_version", "capabilities", "instructions", "website_url", "icons",
              "title", "description")

    def __init__(self, server_name: str, server_version: str, capabilities=None, instructions: str = None,
                 website_url: str = None, icons: list = None, title: str = None, description: str = None) -> None:
        self.server_name, self.server_version, self.capabilities = server_name, server_version, capabilities
        self.instructions, self.website_url, self.icons = instructions, website_url, icons
        self.title, self.description = title, description

    def model_dump(self, **options) -> dict:
        return {name: _sdk_dumped(getattr(self, name), options.get("by_alias", False),
                                  options.get("exclude_none", False), options.get("mode", "python"))
                for name in self.FIELDS}

    def __repr__(self) -> str:
        return "InitializationOptions(%s)" % ", ".join("%s=%r" % (k, getattr(self, k)) for k in self.FIELDS)


class _SDKMcpError(MCPError):
    """mcp's exception for an error answer, raised in a handler to answer with exactly this error:
    ``McpError(ErrorData(...))`` (1.x) and ``MCPError(code, message, data)`` (2.x) are one class."""

    def __init__(self, error=None, message: str = None, data=None, **fields) -> None:
        if isinstance(error, int) or "code" in fields:         # MCPError(code, message, data)
            error = _sdk_types()["ErrorData"](code=fields.get("code", error), message=message or "", data=data)
        super().__init__(error.code, error.message, getattr(error, "data", None))
        self.error = error

    @classmethod
    def from_error_data(cls, error) -> "_SDKMcpError":
        return cls(error)

    def __str__(self) -> str:
        return self.message


def _sdk_answering(method: str, core_handler: str):
    """The low-level Server's handler of a METHODS row: its author's, else the core's.

    A method of a kind its author answers in part (resources/read on a server with only a
    resource list) that nothing registered answers either is "Method not found", as in the SDK.
    """
    kind = METHODS[method][3]

    def answer(self, call):
        own = self._sdk_handlers.get(method)
        if own is None and method not in _SDK_CORE_TOO and not MCPServer._offers(self, kind):
            raise MCPError(METHOD_NOT_FOUND, "Method not found", method if self.dialect.name == "mcp2" else None)
        if own is None or method in _SDK_CORE_TOO:
            result = getattr(MCPServer, core_handler)(self, call)
            if own is None:
                return result
        return self._sdk_answer(call, own)
    answer.__name__ = answer.__qualname__ = core_handler
    return answer


def _sdk_notified(method: str, core_handler: str):
    """The low-level Server's handler of a notification row: the core's, then its author's, if any."""
    def notified(self, session, params: dict) -> None:
        getattr(MCPServer, core_handler)(self, session, params)
        own = self._sdk_handlers.get(method)
        if own is not None and self._sdk_loop is not None and (method != "notifications/progress"
                                                               or "progressToken" in params):
            self._sdk_loop.spawn(own, None, params)
    notified.__name__ = notified.__qualname__ = core_handler
    return notified


class _SDKLowLevel:
    """mcp's low-level ``Server``, in both its forms, on minimcp (see the comment above _SDK_ON).

    mcp 1.x: ``Server(name, version, instructions, website_url, icons, lifespan)`` and a decorator
    per method (``@server.list_tools()``, ``@server.call_tool()``, ...). mcp 2.x:
    ``Server(name, version=..., on_list_tools=..., on_call_tool=..., ...)``, each handler taking
    ``(ctx, params)``. Either is run by ``await server.run(read, write, options)`` inside
    ``async with stdio_server() as (read, write)``, on the script's event loop; ``serve FILE``
    finding one runs it on a loop of its own. Its answers are worded as its mcp version words them.
    """

    def __class_getitem__(cls, _lifespan_type):
        return cls                       # Server[AppContext] in an annotation: the same class here

    def __init__(self, name: str, version: str = None, instructions: str = None, website_url: str = None,
                 icons: list = None, lifespan=None, *, title: str = None, description: str = None,
                 **options) -> None:
        handlers = {key: options.pop(key) for key in list(options) if key in _SDK_ON}
        for key in ("cache_hints", "get_tool_input_schema"):            # mcp 2.x's, not served here
            options.pop(key, None)
        if options:
            raise TypeError("Server() got an unexpected keyword argument %r" % sorted(options)[0])
        dialect = "mcp2" if handlers else "mcp1"
        if version is None:
            version = "" if dialect == "mcp2" else _DIALECTS[dialect].default_version
        MCPServer.__init__(self, name, version, instructions, title=title, description=description,
                           icons=_sdk_json(icons), website_url=website_url, dialect=dialect)
        self.lifespan = lifespan or _SDKNoLifespan
        self._sdk_handlers = {}           # method -> async fn(request context, params dict) -> its answer
        self._sdk_tools = {}              # the tools list_tools last listed, by name (1.x validates calls by them)
        self._sdk_loop = None             # the loop the handlers run on, while serving
        self._sdk_lifespan_value = None
        self._sdk_declared = {}           # the capabilities the initialization options declared
        self._sdk_module = sys._getframe(1).f_globals.get("__name__")   # whose __main__ block starts it
        self._sdk_started = False         # run() was entered (the __main__ block may start it)
        self.middleware, self.extensions = [], {}      # mcp 2.x's: the middleware wraps each request
        for key, handler in handlers.items():
            if handler is not None:
                self.add_request_handler(_SDK_ON[key][0], _sdk_types()[_SDK_ON[key][1]], handler)

    # -- mcp 2.x: handlers by method ------------------------------------------------------------
    def add_request_handler(self, method: str, params_type, handler) -> None:
        """Answer ``method`` with ``handler(ctx, params)``, its params read as ``params_type``."""
        if method == "initialize":
            raise ValueError("'initialize' is handled by the server runner and cannot be overridden")

        async def answer(context, params):
            typed = params_type.model_validate(params or {}) if hasattr(params_type, "model_validate") else params
            return _sdk_json(await handler(context, typed))
        answer.params_type, answer.handler = params_type, handler       # what get_request_handler gives
        self._sdk_handlers[method] = answer

    add_notification_handler = add_request_handler

    def get_request_handler(self, method: str):
        """The entry registered for ``method`` (``.params_type``, ``.handler``), or None."""
        entry = self._sdk_handlers.get(method)
        return entry if hasattr(entry, "handler") else None

    get_notification_handler = get_request_handler

    @property
    def server_info(self):
        """The ``serverInfo`` block: name, version, title, description, website and icons."""
        return _sdk_types()["Implementation"](name=self.name, version=self.version, title=self.title,
                                              description=self.description, websiteUrl=self.website_url,
                                              icons=self.icons)

    # -- mcp 1.x: a decorator per method -------------------------------------------------------
    def _sdk_listing(self, method: str, result_name: str, field: str, request_name: str = None, seen=None):
        def decorator(func):
            with_request = request_name is not None and _sdk_takes_request(func)
            types = _sdk_types()

            async def answer(context, params):
                if with_request:
                    request = None if params is None else types[request_name](
                        params=types["PaginatedRequestParams"](**params))
                    result = await func(request)
                else:
                    result = await func()
                whole = isinstance(result, types[result_name])
                if not whole:
                    result = types[result_name](**{field: list(result)})
                if seen is not None:
                    seen(getattr(result, field), whole)
                return result.to_json()
            self._sdk_handlers[method] = answer
            return func
        return decorator

    def _sdk_remember_tools(self, tools, paged: bool) -> None:
        """What call_tool validates by: a whole list replaces it, a page (a ListToolsResult) adds to it."""
        listed = {_sdk_field(tool, "name"): tool for tool in tools}
        self._sdk_tools = dict(self._sdk_tools, **listed) if paged else listed

    def list_tools(self):
        """``@server.list_tools()``: ``async def f() -> list[Tool]`` (or ``f(request) -> ListToolsResult``)."""
        return self._sdk_listing("tools/list", "ListToolsResult", "tools", "ListToolsRequest",
                                 self._sdk_remember_tools)

    def list_resources(self):
        """``@server.list_resources()``: ``async def f() -> list[Resource]``."""
        return self._sdk_listing("resources/list", "ListResourcesResult", "resources", "ListResourcesRequest")

    def list_resource_templates(self):
        """``@server.list_resource_templates()``: ``async def f() -> list[ResourceTemplate]``."""
        return self._sdk_listing("resources/templates/list", "ListResourceTemplatesResult", "resourceTemplates")

    def list_prompts(self):
        """``@server.list_prompts()``: ``async def f() -> list[Prompt]``."""
        return self._sdk_listing("prompts/list", "ListPromptsResult", "prompts", "ListPromptsRequest")

    def _sdk_decorator(self, method: str, answer_with):
        """A 1.x decorator: ``answer_with(func)`` is the async fn(context, params) that answers ``method``."""
        def decorator(func):
            self._sdk_handlers[method] = answer_with(func)
            return func
        return decorator

    def call_tool(self, *, validate_input: bool = True):
        """``@server.call_tool()``: ``async def f(name, arguments)`` returning content blocks, a dict
        (structured), both as a tuple, or a CallToolResult. As mcp 1.x does, the arguments are checked
        against the listed inputSchema, the structured result against the outputSchema, and a failure
        is an ``isError`` result."""
        def answer_with(func):
            async def answer(context, params):
                name, arguments = params.get("name"), params.get("arguments") or {}
                try:
                    tool = await self._sdk_listed_tool(context, name)
                    if validate_input and tool is not None:
                        problem = _jsonschema_problem(arguments, _sdk_field(tool, "inputSchema") or {})
                        if problem is not None:
                            return _sdk_tool_error("Input validation error: %s" % problem)
                    return self._sdk_tool_result(tool, await func(name, arguments))
                except Exception as exc:            # McpError too: 1.x answers each as an isError result
                    return _sdk_tool_error(str(exc))
            return answer
        return self._sdk_decorator("tools/call", answer_with)

    async def _sdk_listed_tool(self, context, name: str):
        """The tool as list_tools lists it (listing again if it is not known yet), or None."""
        if name not in self._sdk_tools and "tools/list" in self._sdk_handlers:
            await self._sdk_handlers["tools/list"](context, None)
        return self._sdk_tools.get(name)

    def _sdk_tool_result(self, tool, results) -> dict:
        if isinstance(results, _sdk_types()["CallToolResult"]):
            return results.to_json()
        if isinstance(results, tuple) and len(results) == 2:
            unstructured, structured = results
        elif isinstance(results, dict):
            unstructured, structured = [{"type": "text", "text": json.dumps(results, indent=2)}], results
        elif hasattr(results, "__iter__"):
            unstructured, structured = results, None
        else:
            return _sdk_tool_error("Unexpected return type from tool: %s" % type(results).__name__)
        schema = _sdk_field(tool, "outputSchema") if tool is not None else None
        if schema is not None:
            if structured is None:
                return _sdk_tool_error("Output validation error: outputSchema defined but no structured output "
                                       "returned")
            problem = _jsonschema_problem(structured, schema)
            if problem is not None:
                return _sdk_tool_error("Output validation error: %s" % problem)
        result = {"content": [_sdk_json(block) for block in unstructured]}
        if structured is not None:
            result["structuredContent"] = _sdk_json(structured)
        result["isError"] = False
        return result

    def read_resource(self):
        """``@server.read_resource()``: ``async def f(uri)`` returning an iterable of
        ReadResourceContents (or, deprecated, text or bytes)."""
        def answer_with(func):
            async def answer(context, params):
                uri = params.get("uri")
                return {"contents": _sdk_read_contents(uri, await func(_sdk_url(uri)))}
            return answer
        return self._sdk_decorator("resources/read", answer_with)

    def get_prompt(self):
        """``@server.get_prompt()``: ``async def f(name, arguments) -> GetPromptResult``."""
        def answer_with(func):
            async def answer(context, params):
                return _sdk_json(await func(params.get("name"), params.get("arguments")))
            return answer
        return self._sdk_decorator("prompts/get", answer_with)

    def completion(self):
        """``@server.completion()``: ``async def f(ref, argument, context) -> Completion | None``."""
        def answer_with(func):
            async def answer(context, params):
                types, ref = _sdk_types(), params.get("ref") or {}
                reference = types["PromptReference" if ref.get("type") == "ref/prompt"
                                  else "ResourceTemplateReference"](**ref)
                chosen = params.get("context")
                completion = await func(reference, types["CompletionArgument"](**(params.get("argument") or {})),
                                        types["CompletionContext"](**chosen) if isinstance(chosen, dict) else None)
                return {"completion": _sdk_json(completion) if completion is not None else {"values": []}}
            return answer
        return self._sdk_decorator("completion/complete", answer_with)

    def _sdk_empty_answer(self, method: str, read):
        def answer_with(func):
            async def answer(context, params):
                await func(read(params))
                return {}
            return answer
        return self._sdk_decorator(method, answer_with)

    def set_logging_level(self):
        """``@server.set_logging_level()``: ``async def f(level)``."""
        return self._sdk_empty_answer("logging/setLevel", lambda params: params.get("level"))

    def subscribe_resource(self):
        """``@server.subscribe_resource()``: ``async def f(uri)``."""
        return self._sdk_empty_answer("resources/subscribe", lambda params: _sdk_url(params.get("uri")))

    def unsubscribe_resource(self):
        """``@server.unsubscribe_resource()``: ``async def f(uri)``."""
        return self._sdk_empty_answer("resources/unsubscribe", lambda params: _sdk_url(params.get("uri")))

    def progress_notification(self):
        """``@server.progress_notification()``: ``async def f(progress_token, progress, total, message)``."""
        def answer_with(func):
            async def answer(context, params):
                await func(params.get("progressToken"), params.get("progress"), params.get("total"),
                           params.get("message"))
            return answer
        return self._sdk_decorator("notifications/progress", answer_with)

    # -- what the script asks of it ----------------------------------------------------------
    @property
    def request_context(self) -> _SDKRequestContext:
        """The request being served (LookupError outside a handler, as in the SDK)."""
        return _sdk_request_var().get()

    def get_capabilities(self, notification_options=None, experimental_capabilities=None, extensions=None,
                         **_ignored):
        """The capabilities its handlers offer, as the SDK derives them."""
        types, options = _sdk_types(), notification_options or _SDKNotificationOptions()
        handled = self._sdk_handlers
        return types["ServerCapabilities"](
            prompts=types["PromptsCapability"](listChanged=options.prompts_changed)
            if "prompts/list" in handled else None,
            resources=types["ResourcesCapability"](subscribe="resources/subscribe" in handled,
                                                   listChanged=options.resources_changed)
            if "resources/list" in handled else None,
            tools=types["ToolsCapability"](listChanged=options.tools_changed) if "tools/list" in handled else None,
            logging=types["LoggingCapability"]() if "logging/setLevel" in handled else None,
            completions=types["CompletionsCapability"]() if "completion/complete" in handled else None,
            experimental=experimental_capabilities if experimental_capabilities is not None else
            ({} if self.dialect.name == "mcp1" else None), extensions=extensions)

    def create_initialization_options(self, notification_options=None, experimental_capabilities=None,
                                      extensions=None) -> _SDKInitializationOptions:
        """What ``run()`` says at initialize: this server's name, version, instructions and capabilities."""
        return _SDKInitializationOptions(
            self.name, self.version, self.get_capabilities(notification_options, experimental_capabilities,
                                                           extensions),
            self.instructions, self.website_url, self.icons, self.title, self.description)

    def _sdk_adopt(self, options) -> None:
        """Say at initialize what the initialization options handed to run() say."""
        if options is None:
            return
        self.name = getattr(options, "server_name", None) or self.name
        version = getattr(options, "server_version", None)
        self.version = version if version is not None else self.version
        self.instructions = getattr(options, "instructions", None)
        self._sdk_declared = _sdk_json(getattr(options, "capabilities", None)) or {}

    def run(self, read_stream=None, write_stream=None, initialization_options=None, raise_exceptions: bool = False,
            stateless: bool = False, **options):
        """``await server.run(read_stream, write_stream, options)``, as in the SDK, serves the streams
        ``stdio_server()`` gave, on the script's event loop. Called without streams (``serve FILE``
        found the server; ``run(transport="http", ...)``), it serves as MCPServer.run does, its
        handlers on an event loop of minimcp's own."""
        if isinstance(read_stream, _SDKStdioStream) or initialization_options is not None:
            return self._sdk_run(read_stream, write_stream, initialization_options)
        if read_stream is not None and not isinstance(read_stream, str):
            raise TypeError("minimcp serves a low-level Server on the streams of mcp.server.stdio.stdio_server() "
                            "(or by serve FILE, stdio and HTTP), not on %s" % type(read_stream).__name__)
        if read_stream in (None, "stdio") and not options and not self._sdk_started:
            self._sdk_started = True
            if _sdk_run_main_block(self._sdk_module) and self._sdk_started == "served":
                return None               # its script started it as it starts it under the SDK
        self._sdk_started = "served"
        loop = _SDKLoop.own()
        manager = self.lifespan(self)
        self._sdk_adopt(self.create_initialization_options())
        self._sdk_lifespan_value = loop.run(None, manager.__aenter__)
        self._sdk_loop = loop
        try:
            MCPServer.run(self, read_stream or "stdio", **options)
        finally:
            self._sdk_loop = None
            loop.run(None, manager.__aexit__, None, None, None)
            loop.stop()

    async def _sdk_run(self, read_stream, write_stream, initialization_options) -> None:
        if not isinstance(read_stream, _SDKStdioStream) or not isinstance(write_stream, _SDKStdioStream):
            raise TypeError("minimcp serves a low-level Server on the streams of mcp.server.stdio.stdio_server(); "
                            "for HTTP, serve the file: python3 minimcp.py serve --http PORT FILE")
        self._sdk_adopt(initialization_options)
        self._sdk_started = "served"
        loop = _SDKLoop.running()
        async with self.lifespan(self) as value:        # on the script's loop, as the SDK enters it
            self._sdk_lifespan_value, self._sdk_loop = value, loop
            try:
                await loop.in_thread(self.serve, read_stream.stream, write_stream.stream)
            finally:
                self._sdk_loop = None

    # -- how the core reaches the handlers -------------------------------------------------------
    def _sdk_answer(self, call, own):
        """Run a handler of the server's author on the loop, for ``call``: its answer, or its error.

        A method the core runs on the thread that reads the connection (the lists, subscribe,
        setLevel) is answered from a thread of its own instead: waiting there, a handler that
        asks the client something (``list_roots()`` in ``list_tools``) would wait for an answer
        that nobody reads.
        """
        if self._sdk_loop is None:
            raise MCPError(INTERNAL_ERROR, "the server is not running (it is served by server.run())")
        if call.key in call.session.inflight:              # a worker's call: answered by the core
            return self._sdk_call(call, own)
        call.session.answer_on_thread(call, lambda call: self._sdk_call(call, own))
        return None

    def _sdk_call(self, call, own) -> dict:
        context = _SDKRequestContext(self, call)
        variable = _sdk_request_var()

        async def run():
            token = variable.set(context)
            try:
                return await own(context, call.params)
            finally:
                variable.reset(token)
        try:
            result = self._sdk_loop.run(call, run)
        except MCPError:
            raise
        except Exception as exc:                 # the SDKs answer a handler's exception with code 0
            raise MCPError(0, str(exc)) from None
        if not isinstance(result, dict):
            raise MCPError(0, "the %s handler returned %s, not a result" % (call.method, type(result).__name__))
        return result

    def _offers(self, capability: str) -> bool:
        if any(method in self._sdk_handlers for method in _SDK_OFFERED.get(capability, ())):
            return True
        return MCPServer._offers(self, capability)

    # -- mcp 2.x's ASGI app (mcp 1.x mounts a StreamableHTTPSessionManager by hand) -------------
    def streamable_http_app(self, **options) -> "_SDKASGIApp":
        """The endpoint at ``streamable_http_path`` (``/mcp``), over minimcp's ASGI app."""
        return _sdk_streamable_http_app(self, **options)

    session_manager = property(lambda self: _sdk_session_manager(self),
                               doc="The session manager ``streamable_http_app()`` made.")


def _sdk_run_main_block(module_name: str) -> bool:
    """Run the ``if __name__ == "__main__":`` block of the module a low-level Server was made in,
    as ``python server.py`` runs it: it starts the server with its own initialization options
    (name, version, capabilities) on its own event loop. False if the module has none."""
    import ast
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read(), path)
    except (OSError, TypeError, SyntaxError, ValueError):
        return False
    blocks = [node for node in tree.body if isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
              and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"
              and any(getattr(c, "value", getattr(c, "s", None)) == "__main__" for c in node.test.comparators)]
    if not blocks:
        return False
    # Its arguments, where serve was given them (serve server.py --stdio set sys.argv so).
    named = bool(sys.argv) and os.path.abspath(sys.argv[0]) == os.path.abspath(path)
    sys.argv = [path] + (sys.argv[1:] if named else [])
    for block in blocks:
        body = ast.Module(body=block.body, type_ignores=[])
        exec(compile(body, path, "exec"), module.__dict__)
    return True


def _sdk_capabilities(server, rev, capabilities: dict) -> None:
    """A low-level Server's list changes are announced by its author (``send_tool_list_changed``),
    so it declares listChanged as its initialization options say, not as MCPServer does; and the
    experimental capabilities they name."""
    declared = getattr(server, "_sdk_declared", None)
    if not isinstance(declared, dict):
        return
    for kind, method in (("tools", "tools/list"), ("prompts", "prompts/list"), ("resources", "resources/list")):
        if kind in capabilities and method in server._sdk_handlers:
            capabilities[kind]["listChanged"] = bool((declared.get(kind) or {}).get("listChanged"))
    if declared.get("experimental"):
        capabilities["experimental"] = declared["experimental"]


def _sdk_lowlevel_server() -> type:
    """mcp's ``Server``: _SDKLowLevel on MCPServer, with a handler for each row of METHODS it may answer."""
    if "Server" not in _SDK_CACHE:
        answering = set(method for method, _ in _SDK_ON.values()) - {"ping"}
        attrs = {"__doc__": _SDKLowLevel.__doc__}
        for method in answering:
            core_handler = METHODS[method][0]
            make = _sdk_notified if method.startswith("notifications/") else _sdk_answering
            attrs[core_handler] = make(method, core_handler)
        attrs.update(_sdk_request_handlers(attrs, MCPServer))
        attrs["_sdk_middleware_loop"] = _sdk_serving_loop
        _SDK_CACHE["Server"] = type("Server", (_SDKLowLevel, MCPServer), attrs)
    return _SDK_CACHE["Server"]


class _SDKStdioStream:
    """One of the two streams ``stdio_server()`` yields: what ``server.run()`` serves on."""

    def __init__(self, stream) -> None:
        self.stream = stream


class _SDKStdioServer:
    """``async with stdio_server() as (read_stream, write_stream)``: stdin and stdout, taken for the
    protocol (stray prints go to stderr) until the block ends."""

    def __init__(self, stdin=None, stdout=None) -> None:
        self._owned = None

    async def __aenter__(self) -> tuple:
        self._owned = _OwnedStdio()
        instream, outstream = self._owned.__enter__()
        return _SDKStdioStream(instream), _SDKStdioStream(outstream)

    async def __aexit__(self, *exc_info) -> bool:
        self._owned.__exit__(*exc_info)
        return False


def _sdk_lowlevel_names() -> dict:
    """The names of the low-level API: its Server, the stdio transport, the options, McpError."""
    return {"NotificationOptions": _SDKNotificationOptions, "InitializationOptions": _SDKInitializationOptions,
            "create_mcp_http_client": _sdk_http_client, "ServerSession": _SDKServerSession,
            "ReadResourceContents": _SDKReadResourceContents, "McpError": _SDKMcpError, "MCPError": _SDKMcpError,
            "stdio_server": _SDKStdioServer}



# mcp 2.x's request middleware, and the low-level face of the decorator servers ----------
#
# mcp 2.3's ``Server.middleware`` (``MCPServer(middleware=[...])``, ``server.middleware.append``)
# is a list of ``async fn(ctx, call_next)``, outermost first, wrapped around the handling of
# each request: ``ctx`` is the request's context (``.method`` and ``.params`` as the client
# sent them), ``await call_next(ctx)`` is the rest of the chain and the handler, and whatever a
# middleware raises is the answer, as a handler's would be: an MCPError as its error, any other
# exception as code 0 with its text. The official reference servers refuse unknown tools with
# one (``await server.list_tools()`` inside it). Here the chain runs on an event loop of the
# server's (the low-level Server's while it serves, else one of its own), and ``call_next``
# runs the core's handler on a thread, so that the handler may run coroutines of its own.
# A server whose list is empty pays nothing.

class _SDKServerMiddleware:
    """mcp's ``ServerMiddleware``: ``async __call__(ctx, call_next)``; subclass it and override that."""

    def __class_getitem__(cls, _lifespan_type):
        return cls                       # ServerMiddleware[Any] in an annotation

    async def __call__(self, ctx, call_next):
        return await call_next(ctx)


class _SDKMiddlewareRun:
    """One request through a server's middleware, to the core's handler (``handler(server, call)``)."""

    def __init__(self, server, call, handler) -> None:
        self.server, self.call, self.handler = server, call, handler
        self.own_errors = []             # what the core's handler raised: answered as the core answers it
        self.deferred = False            # the handler answers later itself (it returned None)

    def answer(self, loop):
        """The request's answer (None if answered later); MCPError for what a middleware raised."""
        try:
            result = loop.run(self.call, self.chain(loop))
        except MCPError:
            raise
        except Exception as exc:
            if any(exc is own for own in self.own_errors):
                raise
            raise MCPError(0, str(exc)) from None        # as the SDK answers a failing middleware
        if result is None:
            return None if self.deferred else {}
        if isinstance(result, _sdk_types()["ErrorData"]):
            raise _SDKMcpError(result)
        return _sdk_json(result)

    def chain(self, loop):
        """The composed chain, as a coroutine function of no arguments (what ``loop.run`` takes)."""
        async def innermost(ctx):
            if ctx.params is not self.call.params and isinstance(ctx.params, dict):
                self.call.params = dict(ctx.params)      # call_next(replace(ctx, params=...)): the handler's
            try:
                result = await loop.in_thread(self.handler, self.server, self.call)
            except BaseException as exc:
                self.own_errors.append(exc)
                raise
            self.deferred = result is None
            return result
        step = innermost
        for middleware in reversed(list(self.server.middleware)):
            step = self.link(middleware, step)
        context = _SDKRequestContext(self.server, self.call)

        async def run():
            token = _sdk_request_var().set(context)
            try:
                return await step(context)
            finally:
                _sdk_request_var().reset(token)
        return run

    @staticmethod
    def link(middleware, call_next):
        async def step(ctx):
            return await middleware(ctx, call_next)
        return step


def _sdk_through_middleware(handler):
    """A METHODS request handler that passes the request through ``server.middleware`` first."""
    def through(self, call):
        chain = self.__dict__.get("middleware")
        if not chain:
            return handler(self, call)
        if call.key in call.session.inflight or call.method == "initialize":
            return _SDKMiddlewareRun(self, call, handler).answer(self._sdk_middleware_loop())
        # A call the core answers on the thread that reads the connection: the chain may wait
        # (on the client, on the loop), so it runs on a thread of its own, as a worker's call
        # (in flight: cancellable, and the low-level Server's handlers answer it there). Only
        # initialize stays, as in the SDK: what follows it must find the connection initialized.
        call.session.answer_on_thread(call, lambda call: through(self, call))
        return None
    through.__name__ = through.__qualname__ = handler.__name__
    through.__doc__ = handler.__doc__
    return through


def _sdk_request_handlers(attrs: dict, base: type) -> dict:
    """Each request row of METHODS as a class made of ``attrs`` on ``base`` answers it, through
    its middleware: the core's rows (a component's handlers are the seam's to find, not the class's)."""
    wrapped = {}
    for method, (core_handler, _, _, _) in METHODS.items():
        handler = attrs.get(core_handler) or getattr(base, core_handler, None)
        if handler is not None and not method.startswith("notifications/"):
            wrapped[core_handler] = _sdk_through_middleware(handler)
    return wrapped


def _sdk_face_answering(method: str, handler):
    """A decorator server's handler of ``method``: the handler its low-level face registered for
    it (``mcp._mcp_server.subscribe_resource()(fn)``), else its own."""
    def answer(self, call):
        face = self.__dict__.get("_sdk_face")
        own = face._sdk_handlers.get(method) if face is not None else None
        if own is None:
            return handler(self, call)
        if method in _SDK_CORE_TOO:             # the core keeps the subscription or log level too
            handler(self, call)
        face._sdk_loop, face._sdk_lifespan_value = self._sdk_middleware_loop(), self._sdk_lifespan_value
        return face._sdk_answer(call, own)
    answer.__name__ = answer.__qualname__ = handler.__name__
    return answer


class _SDKServerFaces:
    """What an SDK's decorator server has besides its decorators: mcp 2.x's ``middleware`` list,
    its async listings (``await server.list_tools()``), and the low-level Server beneath it that
    servers reach to register what the decorators lack (``mcp._mcp_server.set_logging_level()``
    in mcp 1.x, ``mcp._lowlevel_server.add_request_handler(...)`` in mcp 2.x)."""

    def __init__(self, *args, middleware=None, request_state_security=None, **settings) -> None:
        super().__init__(*args, **settings)
        self.middleware = list(middleware or ())
        if request_state_security is not None:     # its ttl; minimcp seals requestState with its own key
            self.state_ttl = request_state_security.ttl

    @property
    def _sdk_lifespan_value(self):
        return self._lifespan.value if self._lifespan is not None else {}

    def _sdk_middleware_loop(self) -> _SDKLoop:
        """The event loop middleware and the face's handlers run on, started when first needed."""
        with self._lock:
            if self.__dict__.get("_sdk_loop") is None:
                self._sdk_loop = _SDKLoop.own()
            return self._sdk_loop

    @property
    def _lowlevel_server(self):
        """The low-level Server face: handlers registered on it answer this server's requests."""
        with self._lock:
            if self.__dict__.get("_sdk_face") is None:
                self._sdk_face = _sdk_lowlevel_server()(self.name, self.version)
            return self._sdk_face

    _mcp_server = _lowlevel_server

    def completion(self):
        """``@mcp.completion()``: ``async def f(ref, argument, context) -> Completion | None`` answers
        completion/complete, as the low-level Server's decorator of that name takes it."""
        return self._lowlevel_server.completion()

    def _offers(self, capability: str) -> bool:
        face = self.__dict__.get("_sdk_face")
        if face is not None and any(method in face._sdk_handlers for method in _SDK_OFFERED.get(capability, ())):
            return True
        return super()._offers(capability)

    def _sdk_models(self, table: dict, shape, model: str) -> list:
        with self._lock:
            records = list(table.values())
        made = _sdk_types()[model]
        return [made(**_shaped(record, shape, LATEST_HANDSHAKE_VERSION)) for record in records]

    async def list_tools(self) -> list:
        """The tools, as ``Tool`` models (mcp 2.x's ``await server.list_tools()``)."""
        return self._sdk_models(self._tools, _shape_tool, "Tool")

    async def list_prompts(self) -> list:
        """The prompts, as ``Prompt`` models."""
        return self._sdk_models(self._prompts, _shape_prompt, "Prompt")

    async def list_resources(self) -> list:
        """The resources, as ``Resource`` models."""
        return self._sdk_models(self._resources, _shape_resource, "Resource")


def _sdk_serving_loop(server) -> _SDKLoop:
    """A low-level Server's loop, while it serves: its middleware runs there, as its handlers do."""
    loop = server.__dict__.get("_sdk_loop")
    if loop is None:
        raise MCPError(INTERNAL_ERROR, "the server is not running (it is served by server.run())")
    return loop


def _sdk_face_handlers(base: type) -> dict:
    """A decorator server's handlers: its face's first, then through its middleware."""
    attrs = {}
    for method, _ in _SDK_ON.values():
        if not method.startswith("notifications/") and method != "ping":
            core_handler = METHODS[method][0]
            attrs[core_handler] = _sdk_face_answering(method, getattr(base, core_handler))
    return _sdk_request_handlers(attrs, base)


class _SDKRequestStateSecurity:
    """mcp 2.x's ``RequestStateSecurity(keys=[...] | codec=..., ttl=600.0, ...)``: how requestState
    is sealed. minimcp seals it with a key of its own (HMAC-SHA256: the client holds it unread),
    so of this only ``ttl`` is used; the arguments are checked as the SDK checks them."""

    def __init__(self, *, keys=None, codec=None, ttl: float = 600.0, bind_principal=None,
                 audience: str = None) -> None:
        import math
        if (keys is None) == (codec is None):
            raise ValueError("RequestStateSecurity takes exactly one of keys= or codec=")
        if not (isinstance(ttl, (int, float)) and math.isfinite(ttl) and ttl > 0):
            raise ValueError("request-state ttl must be a positive finite number, got %r" % (ttl,))
        self.keys, self.codec, self.ttl = keys, codec, ttl
        self.bind_principal, self.audience = bind_principal, audience

    @classmethod
    def ephemeral(cls, *, ttl: float = 600.0, audience: str = None) -> "_SDKRequestStateSecurity":
        """A key of this process's own."""
        return cls(keys=[os.urandom(32)], ttl=ttl, audience=audience)


class _SDKEventMessage:
    """mcp's ``EventMessage(message, event_id=None)``: a message an EventStore replays."""

    def __init__(self, message, event_id: str = None) -> None:
        self.message, self.event_id = message, event_id

    def __repr__(self) -> str:
        return "EventMessage(message=%r, event_id=%r)" % (self.message, self.event_id)


class _SDKEventStore:
    """mcp's ``EventStore``, the base of a server's own store of events for resumable streams.

    Servers subclass it and hand an instance to ``run(..., event_store=...)``, which minimcp
    accepts and does not use: its HTTP transport keeps what a resumed stream needs itself.
    """

    async def store_event(self, stream_id: str, message) -> str:
        raise NotImplementedError("store_event")

    async def replay_events_after(self, last_event_id: str, send_callback):
        raise NotImplementedError("replay_events_after")


# mcp 2.3's resolvers: a tool parameter ``Annotated[T, Resolve(fn)]`` is no argument of the
# client's; ``fn`` fills it before the tool runs (it may take the tool's arguments by name, the
# Context, and other resolved values), and may return a question (Elicit, Sample, ListRoots)
# that is asked for it. The tool gets the answer's data, or with ``ElicitationResult[T]`` the
# whole outcome (accept, decline, cancel). Asked as minimcp asks (in 2026-07-28 as rounds).

class _SDKResolve:
    """mcp 2.3's ``Resolve(fn)``: fill the parameter by running ``fn``."""

    def __init__(self, fn) -> None:
        self.fn = fn


class _SDKElicit:
    """``Elicit(message, schema)``: a resolver's question to the user (a pydantic model's fields)."""

    def __class_getitem__(cls, _item):
        return cls

    def __init__(self, message: str, schema) -> None:
        self.message, self.schema = message, schema


class _SDKSample:
    """``Sample(messages, max_tokens=..., ...)``: a resolver's request for the client's LLM."""

    def __init__(self, messages, *, max_tokens: int, **options) -> None:
        self.messages, self.max_tokens, self.options = messages, max_tokens, options


class _SDKListRoots:
    """``ListRoots()``: a resolver's request for the client's roots."""


class _SDKOutcome:
    """An elicitation's outcome as mcp 2.3 hands it over: ``.action`` and, accepted, ``.data``."""
    action = None

    def __class_getitem__(cls, _item):
        return cls

    def __init__(self, data=None) -> None:
        self.data = data

    def __repr__(self) -> str:
        return "%s(action=%r%s)" % (type(self).__name__, self.action,
                                    ", data=%r" % (self.data,) if self.action == "accept" else "")


class _SDKAccepted(_SDKOutcome):
    action = "accept"


class _SDKDeclined(_SDKOutcome):
    action = "decline"


class _SDKCancelled(_SDKOutcome):
    action = "cancel"


class _SDKElicitationResult(_SDKOutcome):
    """``ElicitationResult[T]`` in an annotation: the consumer wants the whole outcome."""


def _sdk_resolved_params(fn) -> dict:
    """{parameter: (its Resolve, whether it wants the whole outcome)} of a function."""
    resolved = {}
    signature = _Signature(fn)
    for name, annotation, _ in signature.params:
        try:
            hint = signature.resolve(annotation)
        except SchemaError:
            continue
        origin, args, metadata = _typing_parts(hint)
        marker = next((m for m in metadata or () if isinstance(m, _SDKResolve)), None) \
            if origin == "annotated" else None
        if marker is not None:
            wants = args[0] if isinstance(args[0], type) else _typing_parts(args[0])[0]
            resolved[name] = (marker, isinstance(wants, type) and issubclass(wants, _SDKOutcome))
    return resolved


def _sdk_resolver_key(fn) -> str:
    return "%s:%s" % (getattr(fn, "__module__", None) or type(fn).__module__,
                      getattr(fn, "__qualname__", None) or type(fn).__qualname__)


def _sdk_require(ctx, question, key: str) -> None:
    """mcp 2.3's check before a resolver's question: -32021, naming the capability and the resolver."""
    declared = ctx.client_capabilities or {}
    if isinstance(question, _SDKElicit):
        elicitation = declared.get("elicitation")
        if isinstance(elicitation, dict) and ("form" in elicitation or "url" not in elicitation):
            return
        name, required = "form elicitation", {"elicitation": {"form": {}}}
    elif isinstance(question, _SDKSample):
        if isinstance(declared.get("sampling"), dict):
            return
        name, required = "sampling", {"sampling": {}}
    else:
        if isinstance(declared.get("roots"), dict):
            return
        name, required = "roots", {"roots": {}}
    raise MCPError(MISSING_CLIENT_CAPABILITY, "Client did not declare the %s capability required by resolver %r"
                   % (name, key), {"requiredCapabilities": required})


def _sdk_ask(ctx, question, key: str) -> _SDKOutcome:
    """A resolver's question asked, its answer as an outcome."""
    _sdk_require(ctx, question, key)
    if isinstance(question, _SDKElicit):
        answer = Context.elicit.__wrapped__(ctx, question.message, question.schema)
        action = answer.get("action") if isinstance(answer, dict) else None
        if action == "accept":
            content = answer.get("content") or {}
            schema = question.schema
            return _SDKAccepted(schema.model_validate(content) if _is_pydantic_model(schema) else content)
        return _SDKDeclined() if action == "decline" else _SDKCancelled()
    if isinstance(question, _SDKSample):          # the SDK's CreateMessageResult, ListRootsResult
        return _SDKAccepted(ctx.session.create_message(question.messages, question.max_tokens, **question.options))
    return _SDKAccepted(ctx.session.list_roots())


def _sdk_resolve(ctx, fn, arguments: dict, done: dict):
    """What resolver ``fn`` gives (its outcome), run once per call (``done``: key -> outcome)."""
    key = _sdk_resolver_key(fn)
    if key not in done:
        signature, values = _Signature(fn), {}
        nested = _sdk_resolved_params(fn)
        for name, annotation, _ in signature.params:
            if name in nested:
                outcome = _sdk_resolve(ctx, nested[name][0].fn, arguments, done)
                values[name] = outcome if nested[name][1] else _sdk_unwrapped(outcome, name)
            elif name == signature.context_param():
                values[name] = ctx
            elif name in arguments:
                values[name] = arguments[name]
        value = _sdk_awaited(ctx, fn(**values))
        asked = isinstance(value, (_SDKElicit, _SDKSample, _SDKListRoots))
        done[key] = _sdk_ask(ctx, value, key) if asked else _SDKAccepted(value)
    return done[key]


def _sdk_awaited(ctx, value):
    """A resolver's or a tool's value, run to its end on the call's loop if it is a coroutine."""
    import inspect
    return _run_coroutine(ctx._call, value) if inspect.iscoroutine(value) else value


def _sdk_unwrapped(outcome: _SDKOutcome, name: str):
    if outcome.action == "accept":
        return outcome.data
    raise _SDKToolError("Resolver for parameter %r could not resolve: elicitation was %s" % (name, outcome.action))


def _sdk_input_required(hint) -> tuple:
    """(whether a return annotation has an ``InputRequiredResult`` arm, the annotation without it)."""
    import inspect
    import typing
    cls = _sdk_types()["InputRequiredResult"]
    origin, args, _ = _typing_parts(hint)
    if hint is cls:
        return True, inspect.Parameter.empty
    if not (origin == "union" or repr(origin) == "typing.Union") or cls not in args:
        return False, hint
    rest = tuple(a for a in args if a is not cls)
    return True, rest[0] if len(rest) == 1 else typing.Union[rest]


def _sdk_registered(fn):
    """``fn`` as the core registers a tool or a prompt of mcp 2.3's: its resolved parameters gone
    from its signature (so from the inputSchema) and filled when it is called, and an
    ``InputRequiredResult`` arm gone from its return annotation (mcp 2.3 lists ``-> str |
    InputRequiredResult`` as ``-> str``); ``fn`` itself when it has neither."""
    import functools
    import inspect
    if not inspect.isroutine(fn):                 # a Prompt.from_function(...) object, a callable instance
        return fn
    try:
        signature, read = inspect.signature(fn), _Signature(fn)
    except (TypeError, ValueError):               # a builtin without a signature: the core says what it lacks
        return fn

    def resolved_hint(annotation):                # read where fn was written, not here
        try:
            return annotation if annotation is inspect.Parameter.empty else read.resolve(annotation)
        except SchemaError:
            return annotation
    resolved = _sdk_resolved_params(fn)
    asks, returns = _sdk_input_required(resolved_hint(signature.return_annotation))
    if not resolved and not asks:
        return fn
    context = read.context_param()
    kept = [p.replace(annotation=resolved_hint(p.annotation)) for name, p in signature.parameters.items()
            if name not in resolved]
    if context is None:
        context = "_sdk_context"
        kept.append(inspect.Parameter(context, inspect.Parameter.KEYWORD_ONLY, annotation=Context))

    def call(**arguments):
        ctx = arguments[context]
        done, given = {}, {k: v for k, v in arguments.items() if k != context}
        for name, (marker, whole) in resolved.items():
            outcome = _sdk_resolve(ctx, marker.fn, given, done)
            arguments[name] = outcome if whole else _sdk_unwrapped(outcome, name)
        if context == "_sdk_context":
            del arguments[context]
        value = _sdk_awaited(ctx, fn(**arguments))
        if isinstance(value, _sdk_types()["InputRequiredResult"]):
            raise MCPError(INTERNAL_ERROR, _SDK_INPUT_REQUIRED[ctx._call.rev.questions == "rounds"])
        return value

    stand_in = functools.partial(call)            # no __code__: the core reads __signature__ instead
    stand_in.__signature__ = signature.replace(parameters=kept, return_annotation=returns)
    for attribute in ("__name__", "__qualname__", "__doc__", "__module__"):
        setattr(stand_in, attribute, getattr(fn, attribute, None))
    return stand_in


# An InputRequiredResult a handler builds itself: mcp 2.3's words for it before 2026-07-28, where
# it is no result; from 2026-07-28, where mcp 2.3 sends it on, what minimcp does instead.
_SDK_INPUT_REQUIRED = {
    False: "Handler returned an invalid result",
    True: "Handler returned an invalid result: minimcp does not send on an InputRequiredResult a handler "
          "builds; ask with ctx.elicit(), ctx.sample() or ctx.list_roots(), which minimcp asks as rounds",
}


# The SDKs' ASGI apps: a server handed to an ASGI server as the SDK hands it ------------------
#
# Servers written for the SDKs are often deployed by handing the SDK's Starlette app to uvicorn
# themselves: ``uvicorn.run(mcp.streamable_http_app())`` (mcp 1.x, 2.x), ``app = mcp.http_app()``
# (fastmcp), or a ``StreamableHTTPSessionManager(app=server)`` mounted by hand (the low-level
# Server), often inside a Starlette or FastAPI app whose lifespan enters ``session_manager.run()``.
# The stand-ins are minimcp's own ``app.asgi`` in the SDK's shapes: the endpoint at the SDK's
# path (under a mount's prefix too), answering as minimcp's does, and a lifespan that runs
# whether the ASGI server sends its events to the app, the user's lifespan enters
# ``session_manager.run()``, both, or neither (then the first request starts it, and it ends
# with the process). minimcp has no HTTP+SSE transport: ``sse_app()`` refuses at the call.


def _contextlib_asynccontextmanager(fn):
    """contextlib.asynccontextmanager (contextlib imported here: the header imports what the core does)."""
    import contextlib
    return contextlib.asynccontextmanager(fn)


class _SDKSessionManager:
    """mcp's ``StreamableHTTPSessionManager(app=server, ...)``, over minimcp's ASGI app.

    ``handle_request(scope, receive, send)`` answers at whatever path it is mounted, as the
    SDK's does. ``async with manager.run():`` enters the server's lifespan (a low-level Server's
    on the running loop, where its handlers then run, as under the SDK) and at its end closes
    the streams, cancels what still runs and exits the lifespan. Entered by several (the app's
    lifespan events and the user's lifespan), it starts once and stops at the last exit;
    entered by none, the first request starts it. ``json_response`` and ``stateless`` are kept
    and change nothing: minimcp answers JSON unless something comes first, and any replica
    serves its sessions. The Host and Origin checks are minimcp's (``security_settings`` is
    ignored; README, Security); body and session limits are passed on when given.
    """

    def __init__(self, app, event_store=None, retry_interval: int = None, json_response: bool = False,
                 stateless: bool = False, security_settings=None, max_request_body_size: int = None,
                 session_idle_timeout: float = None, max_sessions: int = None, *, endpoint_path: str = "/mcp",
                 **_ignored) -> None:
        if not isinstance(app, MCPServer):
            raise TypeError("StreamableHTTPSessionManager(app=...) takes the server (a Server, FastMCP or "
                            "MCPServer), not %s" % type(app).__name__)
        self.app, self.event_store, self.retry_interval = app, event_store, retry_interval
        self.json_response, self.stateless, self.security_settings = json_response, stateless, security_settings
        limits = {"max_body": max_request_body_size, "session_idle": session_idle_timeout,
                  "max_sessions": max_sessions}
        self.endpoint_path = endpoint_path
        self.endpoint = app.asgi_app(path=endpoint_path, **{k: v for k, v in limits.items() if v is not None})
        self.holders = 0                 # the run() contexts open
        self.starting = None             # the task that starts it, once
        self.lowlevel_lifespan = None    # a low-level Server's lifespan, entered on the serving loop

    @_contextlib_asynccontextmanager
    async def run(self):
        """Serve between entry and exit: ``async with session_manager.run(): yield`` in a lifespan."""
        self.holders += 1
        try:
            await self.started()
            yield
        finally:
            self.holders -= 1
            if self.holders == 0 and self.starting.done() and self.starting.exception() is None:
                await self._stop()

    async def started(self) -> None:
        """Start once (the lifespan's error raised to every caller), on the loop that serves."""
        import asyncio
        if self.starting is None:
            self.starting = asyncio.get_running_loop().create_task(self._start())
        await asyncio.shield(self.starting)

    async def _start(self) -> None:
        server = self.app
        if isinstance(server, _SDKLowLevel) and server._sdk_loop is None:
            server._sdk_adopt(server.create_initialization_options())   # as the SDK's manager runs it
            lifespan = server.lifespan(server)
            server._sdk_lifespan_value = await lifespan.__aenter__()
            self.lowlevel_lifespan, server._sdk_loop, server._sdk_started = lifespan, _SDKLoop.running(), "served"
        await self.endpoint.startup()

    async def _stop(self) -> None:
        try:
            await self.endpoint.shutdown()
        finally:
            lifespan, self.lowlevel_lifespan = self.lowlevel_lifespan, None
            if lifespan is not None:
                self.app._sdk_loop = None
                await lifespan.__aexit__(None, None, None)

    async def handle_request(self, scope: dict, receive, send) -> None:
        """Answer one ASGI request, at whatever path the manager is mounted."""
        await self.serve(dict(scope, path=self.endpoint_path, root_path=""), receive, send)

    async def serve(self, scope: dict, receive, send) -> None:
        """Answer one ASGI request at the endpoint's own path (under the scope's root_path)."""
        if scope["type"] == "http":
            await self.started()
        await self.endpoint(scope, receive, send)


class _SDKASGIApp:
    """What the SDKs' ``streamable_http_app()`` and fastmcp's ``http_app()`` return (a Starlette
    app there): an ASGI app that serves the MCP endpoint at its path and runs the session
    manager between ``lifespan.startup`` and ``lifespan.shutdown``. ``app.lifespan`` and
    ``app.router.lifespan_context`` (for ``FastAPI(lifespan=...)``), ``app.state`` and
    ``app.add_middleware(cls, **options)`` (Starlette's ASGI middleware, CORS say) are there too.
    """

    def __init__(self, manager: _SDKSessionManager, middleware=None) -> None:
        import types
        self.session_manager = manager
        self.state = types.SimpleNamespace()
        self.router = types.SimpleNamespace(lifespan_context=self.lifespan)
        self.user_middleware = []        # (cls, args, kwargs), outermost first, as Starlette keeps them
        self.stack = None
        for entry in middleware or ():   # Starlette's Middleware(cls, *args, **kwargs)
            self.user_middleware.append((entry.cls, tuple(getattr(entry, "args", ())),
                                         dict(getattr(entry, "kwargs", getattr(entry, "options", {})))))

    def lifespan(self, app=None):
        """The app's lifespan context (fastmcp's ``app.lifespan``): ``session_manager.run()``."""
        return self.session_manager.run()

    def add_middleware(self, middleware_class, *args, **kwargs) -> None:
        """Wrap the app in an ASGI middleware, outermost last added (before the first request)."""
        if self.stack is not None:
            raise RuntimeError("Cannot add middleware after an application has started")
        self.user_middleware.insert(0, (middleware_class, args, kwargs))

    async def __call__(self, scope: dict, receive, send) -> None:
        if self.stack is None:
            stack = self._dispatch
            for middleware_class, args, kwargs in reversed(self.user_middleware):
                stack = middleware_class(stack, *args, **kwargs)
            self.stack = stack
        await self.stack(scope, receive, send)

    async def _dispatch(self, scope: dict, receive, send) -> None:
        if scope["type"] != "lifespan":
            await self.session_manager.serve(scope, receive, send)
            return
        context = self.lifespan(self)
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await context.__aenter__()
                except Exception as failure:         # the lifespan's own error
                    cause = failure.__cause__
                    await send({"type": "lifespan.startup.failed", "message": "minimcp: %s%s" % (
                        failure, ": %s" % cause if cause is not None else "")})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await context.__aexit__(None, None, None)
                await send({"type": "lifespan.shutdown.complete"})
                return


class _SDKStreamableHTTPASGIApp:
    """mcp's ``StreamableHTTPASGIApp(session_manager)``: an ASGI app that hands each request to it."""

    def __init__(self, session_manager: _SDKSessionManager) -> None:
        self.session_manager = session_manager

    async def __call__(self, scope: dict, receive, send) -> None:
        await self.session_manager.handle_request(scope, receive, send)


def _sdk_streamable_http_app(self, streamable_http_path: str = None, json_response: bool = None,
                             stateless_http: bool = None, event_store=None, retry_interval: int = None,
                             max_request_body_size: int = None, session_idle_timeout: float = None,
                             max_sessions: int = None, transport_security=None, **_ignored) -> _SDKASGIApp:
    """mcp's ``streamable_http_app()``: the endpoint at ``/mcp`` (mcp 1.x: ``settings.streamable_http_path``;
    mcp 2.x: ``streamable_http_path=``) and its session manager, which ``session_manager`` is after."""
    settings = self.__dict__.get("settings")
    manager = self.__dict__.get("_sdk_session_manager")
    if settings is None or manager is None:        # mcp 1.x makes one manager; mcp 2.x one per app
        manager = _SDKSessionManager(
            self, event_store, retry_interval,
            json_response if json_response is not None else getattr(settings, "json_response", False),
            stateless_http if stateless_http is not None else getattr(settings, "stateless_http", False),
            transport_security, max_request_body_size, session_idle_timeout, max_sessions,
            endpoint_path=streamable_http_path or getattr(settings, "streamable_http_path", "/mcp"))
        self._sdk_session_manager = manager
    return _SDKASGIApp(manager)


def _sdk_session_manager(self) -> _SDKSessionManager:
    """mcp's ``server.session_manager``: the one ``streamable_http_app()`` made."""
    manager = self.__dict__.get("_sdk_session_manager")
    if manager is None:
        raise RuntimeError("Session manager can only be accessed after calling streamable_http_app(). "
                           "The session manager is created lazily to avoid unnecessary initialization.")
    return manager


def _sdk_fastmcp_http_app(self, path: str = None, middleware=None, json_response: bool = None,
                          stateless_http: bool = None, transport: str = "http", event_store=None,
                          retry_interval: int = None, **_ignored) -> _SDKASGIApp:
    """fastmcp's ``http_app()``: a new app (and session manager) at ``path`` (``/mcp``), with
    ``app.lifespan`` for ``FastAPI(lifespan=...)`` and ``app.state.fastmcp_server``."""
    if transport == "sse":
        raise _SDKUnavailable(_sdk_unusable("fastmcp.FastMCP.http_app(transport='sse')"))
    if transport not in ("http", "streamable-http"):
        raise ValueError("Unknown transport: %s" % transport)
    manager = _SDKSessionManager(self, event_store, retry_interval, bool(json_response), bool(stateless_http),
                                 endpoint_path=path or "/mcp")
    app = _SDKASGIApp(manager, middleware)
    app.state.fastmcp_server = self
    return app


def _sdk_fastmcp_streamable_http_app(self, path: str = None, middleware=None, **options) -> _SDKASGIApp:
    """fastmcp 2.x's ``streamable_http_app()``: ``http_app(transport="streamable-http")``."""
    return _sdk_fastmcp_http_app(self, path, middleware, transport="streamable-http", **options)


def _sdk_sse_refusal(what: str):
    def sse_app(self, *args, **options):
        raise _SDKUnavailable(_sdk_unusable(what))
    sse_app.__doc__ = "Refused at the call: " + _SDK_SSE_HINT + "."
    return sse_app


def _sdk_http_members(dialect: str) -> dict:
    """The ASGI members of a dialect's server class, as its SDK has them."""
    if dialect == "fastmcp":
        return {"http_app": _sdk_fastmcp_http_app, "streamable_http_app": _sdk_fastmcp_streamable_http_app,
                "sse_app": _sdk_sse_refusal("fastmcp.FastMCP.sse_app()")}
    path = {"mcp1": "mcp.server.fastmcp.FastMCP", "mcp2": "mcp.server.mcpserver.MCPServer"}[dialect]
    return {"streamable_http_app": _sdk_streamable_http_app, "session_manager": property(_sdk_session_manager),
            "sse_app": _sdk_sse_refusal(path + ".sse_app()")}


# Names backed in one module only (fastmcp's EventStore, of the same name, is another class).
_SDK_MODULE_NAMES = {
    ("mcp.server.context", "ServerRequestContext"): _SDKRequestContext,
    ("mcp.server.context", "ServerMiddleware"): _SDKServerMiddleware,
    ("mcp.server.runner", "ServerMiddleware"): _SDKServerMiddleware,
    ("mcp.server.streamable_http", "EventStore"): _SDKEventStore,
    ("mcp.server.streamable_http_manager", "StreamableHTTPSessionManager"): _SDKSessionManager,
    ("mcp.server.streamable_http_manager", "StreamableHTTPASGIApp"): _SDKStreamableHTTPASGIApp,
    ("mcp.server.fastmcp.server", "StreamableHTTPASGIApp"): _SDKStreamableHTTPASGIApp,
    ("mcp.server.mcpserver", "RequestStateSecurity"): _SDKRequestStateSecurity,
    ("mcp.server.request_state", "RequestStateSecurity"): _SDKRequestStateSecurity,
    ("mcp.server.streamable_http", "EventMessage"): _SDKEventMessage,
    ("mcp.server.mcpserver", "Resolve"): _SDKResolve, ("mcp.server.mcpserver.resolve", "Resolve"): _SDKResolve,
    ("mcp.server.mcpserver", "Elicit"): _SDKElicit, ("mcp.server.mcpserver.resolve", "Elicit"): _SDKElicit,
    ("mcp.server.mcpserver", "Sample"): _SDKSample, ("mcp.server.mcpserver.resolve", "Sample"): _SDKSample,
    ("mcp.server.mcpserver", "ListRoots"): _SDKListRoots,
    ("mcp.server.mcpserver.resolve", "ListRoots"): _SDKListRoots,
    ("mcp.server.mcpserver", "ElicitationResult"): _SDKElicitationResult,
    ("mcp.server.mcpserver.resolve", "ElicitationResult"): _SDKElicitationResult,
    ("mcp.server.elicitation", "ElicitationResult"): _SDKElicitationResult,
    ("mcp.server.mcpserver", "AcceptedElicitation"): _SDKAccepted,
    ("mcp.server.elicitation", "AcceptedElicitation"): _SDKAccepted,
    ("mcp.server.mcpserver", "DeclinedElicitation"): _SDKDeclined,
    ("mcp.server.elicitation", "DeclinedElicitation"): _SDKDeclined,
    ("mcp.server.mcpserver", "CancelledElicitation"): _SDKCancelled,
    ("mcp.server.elicitation", "CancelledElicitation"): _SDKCancelled,
}
for _backed in _SDK_MODULE_NAMES.items():
    _backed[1].__name__ = _backed[1].__qualname__ = _backed[0][1]    # tracebacks name them as the SDK does
del _backed


def install_sdk_aliases() -> None:
    """Let code written for the official SDK or FastMCP import its names from minimcp.

    After this call every public module and name of ``mcp`` (1.2 to 2.3) and ``fastmcp``
    (2 to 4) imports, unless the real package is installed: an installed package always wins.
    The names servers use (``FastMCP``, ``MCPServer``, ``Context``, ``Image``, ``ToolError``,
    prompt messages, ``mcp.types`` content, ``Tool.from_function``) are backed by minimcp;
    any other public name is a placeholder that says what to do when it is used. A name the
    SDK does not have raises ImportError, as it would there. ``python3 minimcp.py serve
    server.py`` calls this for you; a script that starts itself calls it before its SDK imports.
    """
    if not any(isinstance(finder, _SDKFinder) for finder in sys.meta_path):
        sys.meta_path.append(_SDKFinder())


def _sdk_attribute(name: str):
    # minimcp.FastMCP, ToolError, UserMessage, ... are built on first use, so ``import minimcp`` stays cheap.
    if name == "FastMCP":
        return _sdk_server("mcp1")
    if name[:1].isupper() and name in _sdk_names():
        return _sdk_names()[name]
    return None


_plug("sdk", "the official SDK's names: servers written for mcp or fastmcp run unchanged",
      attributes=_sdk_attribute, capabilities=_sdk_capabilities, names=("FastMCP", "install_sdk_aliases"))
