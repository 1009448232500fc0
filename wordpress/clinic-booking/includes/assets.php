<?php
/**
 * The widget's script (a module, from the BFF, once per page and only on pages that show the widget) and the
 * CSS that keeps the page still while it loads.
 *
 * @package ClinicBooking
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const CLINIC_BOOKING_SCRIPT_HANDLE = 'clinic-booking-widget';
const CLINIC_BOOKING_STYLE_HANDLE  = 'clinic-booking';

/**
 * The filters that make the classic script a module (WordPress before 6.5) and keep optimisers off it.
 */
function clinic_booking_add_asset_hooks() {
	add_filter( 'script_loader_tag', 'clinic_booking_module_tag', 10, 2 );
	add_filter( 'wp_script_attributes', 'clinic_booking_module_attributes' );
}

/**
 * Enqueues the widget's script: with WordPress's script modules where it has them (6.5+), else as a classic
 * script in the footer that clinic_booking_module_tag() turns into a module. Enqueuing twice prints it once.
 *
 * @return bool False when no widget URL is set.
 */
function clinic_booking_enqueue_widget() {
	$src = clinic_booking_script_url();
	if ( '' === $src ) {
		return false;
	}
	if ( function_exists( 'wp_enqueue_script_module' ) ) {
		wp_enqueue_script_module( CLINIC_BOOKING_SCRIPT_HANDLE, $src, array(), null );
	} else {
		// phpcs:ignore WordPress.WP.EnqueuedResourceParameters.MissingVersion -- the BFF's URL is stable and its module content-hashed.
		wp_enqueue_script( CLINIC_BOOKING_SCRIPT_HANDLE, $src, array(), null, true );
	}
	return true;
}

/**
 * The classic script tag of the widget, as a module: type="module" (the widget is an ES module), and
 * data-cfasync="false" before src, so Cloudflare's Rocket Loader leaves it alone.
 *
 * @param string $tag    The tag WordPress wrote.
 * @param string $handle Its script's handle.
 * @return string
 */
function clinic_booking_module_tag( $tag, $handle ) {
	if ( CLINIC_BOOKING_SCRIPT_HANDLE !== $handle ) {
		return $tag;
	}
	$tag = preg_replace( '/\stype=(["\'])[^"\']*\1/', '', $tag );
	return preg_replace( '/<script\b/', '<script type="module" data-cfasync="false"', $tag, 1 );
}

/**
 * The same attribute for the script module's tag (WordPress 6.5+), which WordPress writes with type="module".
 *
 * @param array $attributes The tag's attributes.
 * @return array
 */
function clinic_booking_module_attributes( $attributes ) {
	if ( isset( $attributes['id'] ) && CLINIC_BOOKING_SCRIPT_HANDLE . '-js-module' === $attributes['id'] ) {
		$attributes = array_merge( array( 'data-cfasync' => 'false' ), $attributes );
	}
	return $attributes;
}

/**
 * The page's CSS for the widget: the space each kind of widget will take, held before its script has run
 * (docs/embedding.md, "Keep the page still while the widget loads"), and the theme colour.
 *
 * - With scripting on, an element not yet defined takes about the height its content will: a screen for
 *   the whole clinic site, less for the booking form or the status lookup alone. The widget keeps that
 *   space through its skeleton until its content has rendered.
 * - After 8 s the reservation ends (the BFF down, the script blocked): the fallback keeps its own size.
 * - The floating button's fallback floats where the button will be.
 *
 * @return string
 */
function clinic_booking_page_css() {
	// Heights measured on Twenty Twenty-Three with the demo clinic (six treatments); a theme may set the
	// --clinic-booking-reserve-* properties to its own. Narrow screens stack the choices, so take more.
	$css = '@media (scripting: enabled) {'
		. 'clinic-booking:not(:defined) { display: flow-root; min-height: 100vh; animation: clinic-booking-reserve 0s 8s forwards; }'
		. 'clinic-booking[sections="booking"]:not(:defined) { min-height: var(--clinic-booking-reserve-booking, 34rem); }'
		. 'clinic-booking[sections="status"]:not(:defined) { min-height: var(--clinic-booking-reserve-status, 15.25rem); }'
		. '@media (max-width: 480px) {'
		. 'clinic-booking[sections="booking"]:not(:defined) { min-height: var(--clinic-booking-reserve-booking, 58rem); }'
		. 'clinic-booking[sections="status"]:not(:defined) { min-height: var(--clinic-booking-reserve-status, 18.25rem); }'
		. '}'
		. 'clinic-booking[mode="button"]:not(:defined) { position: fixed; right: 1rem; bottom: 1rem; min-height: 0; z-index: 10; }'
		. '}'
		. '@keyframes clinic-booking-reserve { to { min-height: 0; } }';
	$color = sanitize_hex_color( clinic_booking_settings()['theme_color'] );
	if ( $color ) {
		$css .= 'clinic-booking { --clinic-booking-primary: ' . $color . '; }';
	}
	return $css;
}

/**
 * Puts the page CSS in the page once: in the head when the widget is rendered before it (block themes render
 * their template first), else as a <style> before the widget's markup, so it is there before the element is.
 *
 * @return string Markup to print before the element ('' when the head carries the CSS, or it is printed).
 */
function clinic_booking_page_css_once() {
	static $printed = false;
	if ( $printed ) {
		return '';
	}
	$printed = true;
	if ( ! did_action( 'wp_head' ) && ! doing_action( 'wp_head' ) ) {
		wp_register_style( CLINIC_BOOKING_STYLE_HANDLE, false, array(), CLINIC_BOOKING_VERSION );
		wp_add_inline_style( CLINIC_BOOKING_STYLE_HANDLE, clinic_booking_page_css() );
		wp_enqueue_style( CLINIC_BOOKING_STYLE_HANDLE );
		return '';
	}
	return '<style id="clinic-booking-inline-css">' . wp_strip_all_tags( clinic_booking_page_css() ) . '</style>';
}
