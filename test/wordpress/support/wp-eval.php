<?php
/**
 * Runs PHP inside a test site: php wp-eval.php WORDPRESS_DIR SITE_URL CODE [ARG...]. The code runs with
 * WordPress loaded (as the site's front end would load it) and $args holding the arguments after it; what it
 * echoes is the answer.
 */

$dir  = $argv[1];
$url  = $argv[2];
$code = $argv[3];
$args = array_slice( $argv, 4 );
$_SERVER['HTTP_HOST']   = parse_url( $url, PHP_URL_HOST ) . ':' . parse_url( $url, PHP_URL_PORT );
$_SERVER['REQUEST_URI'] = '/';
require $dir . '/wp-load.php';
eval( $code );
